import BrowserCore
import Dispatch
import Synchronization
import SystemKit
import TerminalGraphics
import ThumbnailKit

/// Encodes pictures for the terminal (the driver's `render`: chafa, PNG) on a thread of its own, so that a large picture
/// (a full-screen Quick Look sixel takes 30–60 ms) never holds up a key. The UI asks for what it
/// wants to draw each frame; what scrolled away before its turn is dropped unencoded, and what is
/// done comes back through the inbox.
final class PictureEncoder: Sendable {
    struct Job: Sendable {
        let id: String
        let image: PixelImage
        let driver: any GraphicsDriver
        let columns: Int
        let rows: Int
        /// The id the terminal keeps the picture under (kitty).
        let imageID: UInt32
        /// An edit under way shows the picture turned.
        var turn = QuickEdit.Turn.none
        /// A crop's rectangle or Markup's marks over the picture, drawn after the turn.
        var overlay: PictureOverlay?
    }

    private let inbox: Inbox
    private let queue = DispatchQueue(label: "qlbrowse.picture-encoder", qos: .userInitiated)
    /// Ids queued and not yet encoded, and the ids the last frame wanted.
    private let pending = Mutex<(queued: Set<String>, wanted: Set<String>)>(([], []))

    init(inbox: Inbox) {
        self.inbox = inbox
    }

    /// Queues a picture unless it is already queued.
    func request(_ job: Job) {
        let isNew = pending.withLock { state -> Bool in
            state.wanted.insert(job.id)
            return state.queued.insert(job.id).inserted
        }
        guard isNew else { return }
        queue.async { [self] in
            let stillWanted = pending.withLock { state -> Bool in
                state.queued.remove(job.id)
                return state.wanted.contains(job.id)
            }
            guard stillWanted else { return }
            var image = job.turn.applied(to: job.image)
            if let overlay = job.overlay { image = overlay.applied(to: image) }
            inbox.post(.encoded(id: job.id, job.driver.render(image, columns: job.columns, rows: job.rows, imageID: job.imageID)))
        }
    }

    /// What the frame just drawn wanted: queued pictures outside it are skipped when their turn comes.
    func keepOnly(_ ids: Set<String>) {
        pending.withLock { $0.wanted = ids }
    }
}
