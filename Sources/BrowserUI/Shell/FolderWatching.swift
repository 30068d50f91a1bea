import BrowserCore
import Places
import SystemKit
import Synchronization

/// The shown folder watched through its place (`Place.watch`: inotify here, the remote's own
/// inotify over the link, nothing on an SFTP place, which refuses): files that appear, change
/// or go are shown without a key. A change lists the folder again (`.folderChanged`, which keeps
/// the cursor's entry, the filter and the marks), a quarter of a second after it so that the changes after it fold in, and at most
/// once a second, so a folder being written to all the time is not listed without end.
final class FolderWatching {
    private let place: any Place
    private let inbox: Inbox
    private var watched: (folder: String, task: Task<Void, Never>)?

    /// How long a change waits for the ones after it, and the least time between two listings.
    static let settle: Duration = .milliseconds(250)
    static let spacing: Duration = .seconds(1)

    init(place: any Place, inbox: Inbox) {
        self.place = place
        self.inbox = inbox
    }

    /// Watches `folder` (the folder listed), ending the watch of the one before; the same
    /// folder listed again keeps its watch.
    func follow(_ folder: String) {
        guard watched?.folder != folder else { return }
        watched?.task.cancel()
        let place = self.place, inbox = self.inbox
        let task = Task {
            // A place that cannot watch (SFTP, a folder inotify refuses) is not watched.
            let watch = await FolderWatching.changes(of: folder, in: place)
            guard let changes = watch, !Task.isCancelled else { return }
            let reloads = Reloads(inbox: inbox, folder: folder)
            for await change in changes {
                reloads.due()
                if change == .gone { return }
            }
        }
        watched = (folder, task)
    }

    /// The folder's changes, asked for on a thread of its own: adding an inotify watch looks the
    /// folder up, and on a hung share that lookup never returns (hung-volume.py's FUSE mount): it
    /// must hold no thread of the pool the browser's other work runs on.
    private static func changes(of folder: String, in place: any Place) async -> AsyncStream<PlaceChange>? {
        await withCheckedContinuation { (continuation: CheckedContinuation<AsyncStream<PlaceChange>?, Never>) in
            // Resumed once: by the thread, or here when no thread could be made.
            if !DetachedThread.start(stackSize: 256 << 10, { continuation.resume(returning: try? place.watch(folder)) }) {
                continuation.resume(returning: nil)
            }
        }
    }

    /// Stops watching.
    func stop() {
        watched?.task.cancel()
        watched = nil
    }

    /// The listings a watch asks for: one `settle` after a change, at most one each `spacing`.
    private final class Reloads: Sendable {
        private let inbox: Inbox
        private let folder: String
        private let state = Mutex<(scheduled: Bool, last: ContinuousClock.Instant?)>((false, nil))

        init(inbox: Inbox, folder: String) {
            self.inbox = inbox
            self.folder = folder
        }

        /// A change: lists the folder again soon, unless that is already asked.
        func due() {
            let wait = state.withLock { state -> Duration? in
                guard !state.scheduled else { return nil }
                state.scheduled = true
                let now = ContinuousClock.now
                let earliest = state.last.map { $0 + FolderWatching.spacing } ?? now
                return max(FolderWatching.settle, earliest - now)
            }
            guard let wait else { return }
            Task { [self] in
                try? await Task.sleep(for: wait)
                state.withLock { $0 = (false, .now) }
                inbox.post(.result(.folderChanged(folder: folder)))
            }
        }
    }
}
