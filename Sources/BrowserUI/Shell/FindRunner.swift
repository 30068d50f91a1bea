import BrowserCore
import FileSystemKit
import Places
import Synchronization
import SystemKit

/// Runs the one search `F` has open: the folder's place's search (`Place.find`: a `FileFinder`
/// here, the remote's own over there in a remote tab), told each new query, stopped when the
/// search closes; or, inside the files, ripgrep (`rg -l`, `Place.findInside`: here, or on the
/// remote in a remote tab), started again for each query a moment after the last key, as a task of the scheduler that the next query cancels. The
/// walk is a task of the scheduler too, until it is done or the search closes.
/// Reports come back through the inbox with the search's ticket.
final class FindRunner {
    private let inbox: Inbox
    private let scheduler: BackgroundTasks
    private let place: PlaceRouter
    private var finder: PlaceFind?
    private var ticket = 0
    private var root = "/"
    private var volume = "/"
    /// How many files a content search lists at most.
    static let contentLimit = 200
    /// The scheduler's group of content searches (one at a time: a newer one cancels the last).
    static let contentGroup = "find-content"
    /// The scheduler's group of the name search's walk.
    static let walkGroup = "find"

    init(inbox: Inbox, scheduler: BackgroundTasks, place: PlaceRouter) {
        self.inbox = inbox
        self.scheduler = scheduler
        self.place = place
    }

    /// A search over before it began: nothing matched, and the walk is over.
    private static func nothing(_ query: String) -> FileFinder.Report {
        FileFinder.Report(query: query, best: [], matched: 0, walked: 0, complete: true, unreadable: 0)
    }

    /// Starts finding below `root` (a remote tab's on the remote); other volumes mounted below it
    /// are left out. A place that cannot find says why, and the search shows nothing.
    func start(root: String, showsHidden: Bool, ticket: Int, volumes: [Volume]) {
        stop()
        let inbox = self.inbox
        let walked = Latch()
        let finder = place.find(under: root, showsHidden: showsHidden, skipping: volumes.map(\.mountPoint)) { result in
            switch result {
            case .success(let report):
                inbox.post(.result(.found(ticket: ticket, report)))
                if report.complete { walked.open() }
            case .failure(let failure):
                inbox.post(.result(.showMessage(failure.message)))
                inbox.post(.result(.found(ticket: ticket, Self.nothing(""))))
                walked.open()
            }
        }
        self.finder = finder
        self.ticket = ticket
        self.root = root
        // A remote's walk is on its link: the scheduler's lane is the remote's prefix.
        self.volume = PlacePath.isLocal(root) ? Volume.containing(root, in: volumes)?.mountPoint ?? "/" : PlacePath.split(root)?.prefix ?? root
        finder.search("")
        // The walk is a task of the scheduler while it runs (its thread is the finder's own);
        // closing the search cancels it. Queries after the walk rank what it found, on no task.
        scheduler.submit(group: Self.walkGroup, volume: volume, priority: .user) { context in
            context.onCancel {
                finder.cancel()
                walked.open()
            }
            if !context.isCancelled { finder.start() }
            await walked.wait()
        }
    }

    /// Opens once; whoever waits on it goes on then (at once when it is open already).
    private final class Latch: Sendable {
        private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
        func open() {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                guard !state.isOpen else { return [] }
                state.isOpen = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        func wait() async {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.isOpen { return true }
                    state.waiters.append(waiter)
                    return false
                }
                if now { waiter.resume() }
            }
        }
    }

    func search(_ query: String, insideFiles: Bool, ticket: Int) {
        guard ticket == self.ticket else { return }
        scheduler.cancel(group: Self.contentGroup)
        guard insideFiles else {
            finder?.search(query)
            return
        }
        guard !query.isEmpty else {
            inbox.post(.result(.found(ticket: ticket, Self.nothing(query))))
            return
        }
        let inbox = self.inbox, root = self.root, place = self.place
        scheduler.submit(group: Self.contentGroup, volume: volume, priority: .user) { context in
            // A moment after the last key, so that typing a word starts ripgrep once.
            try await Task.sleep(for: .milliseconds(150))
            let ended = Latch()
            // ripgrep where the files are: here, or on the remote of a remote tab.
            let search = place.findInside(root, query: query, limit: Self.contentLimit) { result in
                guard !context.isCancelled else { return }
                switch result {
                case .success(let report):
                    inbox.post(.result(.found(ticket: ticket, report)))
                    if report.complete { ended.open() }
                case .failure(let failure):
                    inbox.post(.result(.showMessage(failure.message)))
                    inbox.post(.result(.found(ticket: ticket, Self.nothing(query))))
                    ended.open()
                }
            }
            context.onCancel {
                search.cancel()
                ended.open()
            }
            await ended.wait()
        }
    }

    func stop() {
        finder?.cancel()
        finder = nil
        scheduler.cancel(group: Self.walkGroup)
        scheduler.cancel(group: Self.contentGroup)
    }
}
