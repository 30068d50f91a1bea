import Dispatch
import Synchronization
import TerminalGraphics
import ThumbnailKit

/// A picture made ready for the terminal: block-art cells, or a pixel-protocol sequence.
enum EncodedPicture: Sendable {
    case symbols(ChafaEncoder.SymbolArt)
    case sequence(bytes: [UInt8], columns: Int, rows: Int)
}

/// Encodes pictures for the terminal (chafa) on a thread of its own, so that a large picture
/// (a full-screen Quick Look sixel takes 30–60 ms) never holds up a key. The UI asks for what it
/// wants to draw each frame; what scrolled away before its turn is dropped unencoded, and what is
/// done comes back through the inbox.
final class PictureEncoder: Sendable {
    struct Job: Sendable {
        let id: String
        let image: PixelImage
        let mode: GraphicsMode
        let columns: Int
        let rows: Int
        let cellWidth: Int
        let cellHeight: Int
        let colors: Int
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
            inbox.post(.encoded(id: job.id, Self.encode(job)))
        }
    }

    /// What the frame just drawn wanted: queued pictures outside it are skipped when their turn comes.
    func keepOnly(_ ids: Set<String>) {
        pending.withLock { $0.wanted = ids }
    }

    static func encode(_ job: Job) -> EncodedPicture {
        let cell = (width: job.cellWidth, height: job.cellHeight)
        if job.mode == .symbols {
            return .symbols(ChafaEncoder.symbols(job.image, columns: job.columns, rows: job.rows, cell: cell, colors: job.colors))
        }
        let encoded = ChafaEncoder.sequence(job.image, mode: job.mode, columns: job.columns, rows: job.rows, cell: cell)
        return .sequence(bytes: encoded.bytes, columns: encoded.columns, rows: encoded.rows)
    }
}
