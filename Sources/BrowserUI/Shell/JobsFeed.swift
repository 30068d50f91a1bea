import BrowserCore
import Synchronization
import SystemKit

/// What the jobs panel shows, read from the scheduler's list: on every start and report, the job
/// as the scheduler lists it, its phase the scheduler's while it waits (`.queued` until a slot is
/// free), its own report once it runs. The scheduler is the one list of what runs; the state
/// keeps the ended jobs beside it, for the panel's "done" lines.
final class JobsFeed: Sendable {
    private let inbox: Inbox
    private let scheduler = Mutex<BackgroundTasks?>(nil)

    init(inbox: Inbox) {
        self.inbox = inbox
    }

    /// The scheduler whose events `heard` is given (made after the feed, which it reports to).
    func follow(_ tasks: BackgroundTasks) {
        scheduler.withLock { $0 = tasks }
    }

    /// The scheduler's observer: a job's start or report goes to the state as the list has it.
    func heard(_ event: BackgroundTasks.Event) {
        let id: Int
        switch event {
        case .started(let started): id = started
        case .progress(let reported, _): id = reported
        case .ended: return
        }
        guard let listing = scheduler.withLock({ $0 })?.tasks.first(where: { $0.id == id }),
              let status = Self.status(of: listing) else {
            // Already gone from the list (its last report comes as it ends): the report as told.
            if case .progress(_, let status) = event { inbox.post(.result(.jobChanged(status))) }
            return
        }
        inbox.post(.result(.jobChanged(status)))
    }

    /// A listed task's job status, its phase `.queued` while it waits; nil for tasks that are no jobs.
    static func status(of listing: BackgroundTasks.Listing) -> JobStatus? {
        guard var status = listing.report else { return nil }
        if listing.phase == .queued && status.phase.isActive { status.phase = .queued }
        return status
    }
}
