import BrowserCore
import Places
import Synchronization

/// The shown folder watched through its place (`Place.watch`: inotify here, the remote's own
/// inotify over the link, a poll of the folder's stamp on an SFTP place): files that appear, change
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
            // A folder the place cannot watch (one inotify refuses) is not watched, nor is a
            // folder on a hung share: the place adds the watch on the volume's own threads with a
            // deadline (`LocalPlace.watch`), so this task is never held by the kernel.
            let watch = try? await place.watch(folder)
            guard let changes = watch, !Task.isCancelled else { return }
            let reloads = Reloads(inbox: inbox, folder: folder)
            for await change in changes {
                reloads.due()
                if change == .gone { return }
            }
        }
        watched = (folder, task)
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
