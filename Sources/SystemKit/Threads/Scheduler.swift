import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one scheduler for a program's background tasks (yazi's is the model): every task has a
/// priority, a volume and a group, waits in one queue until the limits let it start (what is on
/// screen first, then in the order asked), reports progress, and is cancelled by its id, its
/// volume or its group. `tasks` is the one list of what waits and what runs.
///
/// `Report` is what a task tells of its progress (the browser's jobs tell their `JobStatus`).
/// A task cancelled before it started still runs once, at once and already cancelled, so that
/// it can say what became of it (a job "cancelled", a read "not read"). How a task is started
/// is given (`launch`): a detached `Task` in the program, the test's own executor in tests.
public final class Scheduler<Report: Sendable>: Sendable {
    /// What comes first when slots are free: on-screen work, then what the user asked, then the rest.
    public enum Priority: Int, Sendable, Comparable {
        case background = 0, user = 1, onScreen = 2
        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
        /// The priority its work runs at once started (a batch at `.utility`, as before).
        var taskPriority: TaskPriority { self == .background ? .utility : .userInitiated }
    }

    /// Where a task is.
    public enum Phase: Sendable, Equatable { case queued, running }

    /// A task as the list shows it.
    public struct Listing: Sendable {
        public let id: Int
        public let group: String
        public let volume: String
        public let priority: Priority
        public var phase: Phase
        /// The last progress the task reported.
        public var report: Report?
        public var isCancelled: Bool
    }

    /// How a task ended.
    public enum Outcome: Sendable, Equatable {
        case finished, cancelled
        /// The task threw: what it said.
        case failed(String)
    }

    /// What the scheduler tells its observer, in the order it happened for each task.
    public enum Event: Sendable {
        case started(Int)
        case progress(Int, Report)
        case ended(Int, Outcome)
    }

    /// What a running task gets: whether it is cancelled, a way to report progress, and a way
    /// to hear cancellation (to stop a thread or answer an open question).
    public final class Context: Sendable {
        public let id: Int
        fileprivate let cancelled = Mutex<(done: Bool, reason: String?, handlers: [@Sendable () -> Void])>((false, nil, []))
        fileprivate let progress: @Sendable (Report) -> Void
        fileprivate init(id: Int, progress: @escaping @Sendable (Report) -> Void) {
            self.id = id
            self.progress = progress
        }
        /// Whether the task was cancelled (by id, volume, group or shutdown).
        public var isCancelled: Bool { cancelled.withLock { $0.done } }
        /// Why it was cancelled ("cancelled" for the user's wish, or what happened), the first reason given.
        public var cancelReason: String? { cancelled.withLock { $0.reason } }
        /// Tells the list, and the observer, how far the task is.
        public func report(_ report: Report) { progress(report) }
        /// `handler` runs once when the task is cancelled (at once when it is already).
        public func onCancel(_ handler: @escaping @Sendable () -> Void) {
            let now = cancelled.withLock { state -> Bool in
                if state.done { return true }
                state.handlers.append(handler)
                return false
            }
            if now { handler() }
        }
        fileprivate func cancel(reason: String) {
            let handlers = cancelled.withLock { state -> [@Sendable () -> Void] in
                guard !state.done else { return [] }
                state.done = true
                state.reason = reason
                defer { state.handlers = [] }
                return state.handlers
            }
            for handler in handlers { handler() }
        }
    }

    public typealias Work = @Sendable (Context) async throws -> Void

    private struct Item {
        var listing: Listing
        let context: Context
        let work: Work
        let order: Int
        let attachment: (any Sendable)?
    }

    private struct Queue {
        var items: [Int: Item] = [:]
        var nextOrder = 0
        var nextID = 0
    }

    private let queue = Mutex(Queue())
    private let limit: Int
    private let perVolume: @Sendable (String) -> Int
    private let perGroup: @Sendable (String) -> Int
    private let launch: @Sendable (@escaping @Sendable () async -> Void) -> Void
    private let observer: @Sendable (Event) -> Void

    /// `limit` tasks at once in all; `perVolume(volume)` at once on one volume; `perGroup(group)`
    /// at once in one group (1: one at a time, in the order asked); `launch` runs a task's body;
    /// `observer` hears every start, progress and end.
    public init(limit: Int, perVolume: @escaping @Sendable (String) -> Int, perGroup: @escaping @Sendable (String) -> Int = { _ in .max },
                launch: @escaping @Sendable (@escaping @Sendable () async -> Void) -> Void = { body in Task.detached { await body() } },
                observer: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.limit = limit
        self.perVolume = perVolume
        self.perGroup = perGroup
        self.launch = launch
        self.observer = observer
    }

    /// Queues `work`; it starts when the limits allow, higher priorities first. Returns its id
    /// (`id` when given: the browser's jobs keep the numbers the jobs panel shows; else a
    /// negative one). `report` is listed (and told) at once, before the task starts;
    /// `attachment` is what others reach the running task by (a question's answer, a pause).
    @discardableResult
    public func submit(group: String, volume: String, priority: Priority, id given: Int? = nil, report: Report? = nil,
                       attachment: (any Sendable)? = nil, work: @escaping Work) -> Int {
        let id = queue.withLock { queue -> Int in
            let id = given ?? { queue.nextID -= 1; return queue.nextID }()
            let context = Context(id: id) { [weak self] report in self?.progress(id, report) }
            let listing = Listing(id: id, group: group, volume: volume, priority: priority, phase: .queued, report: report, isCancelled: false)
            queue.items[id] = Item(listing: listing, context: context, work: work, order: queue.nextOrder, attachment: attachment)
            queue.nextOrder += 1
            return id
        }
        if let report { observer(.progress(id, report)) }
        startWhatFits()
        return id
    }

    /// What task `id` was given to be reached by, while it waits or runs.
    public func attachment(of id: Int) -> (any Sendable)? { queue.withLock { $0.items[id]?.attachment } }

    /// Waits (at most `seconds`, blocking this thread) until no task of `group` waits or runs:
    /// on quitting, cancelled copies and edits remove their temporaries first.
    public func waitUntilIdle(group: String, seconds: Double, clock: any TimeSource = SystemTime()) {
        let deadline = clock.now() + Int64(seconds * 1e9)
        while isBusy(group: group) && clock.now() < deadline { usleep(20_000) }
    }

    /// What waits and what runs: running first, then queued in the order they will start.
    public var tasks: [Listing] {
        queue.withLock { queue in
            queue.items.values.sorted { a, b in
                if (a.listing.phase == .running) != (b.listing.phase == .running) { return a.listing.phase == .running }
                return Self.comesFirst(a, b)
            }.map(\.listing)
        }
    }

    /// Cancels one task; a queued one runs its work at once, already cancelled. `reason` is
    /// "cancelled" for the user's wish, or what happened ("photos was disconnected").
    /// With `group`, only a task of that group is cancelled.
    public func cancel(_ id: Int, reason: String = "cancelled", group: String? = nil) {
        cancel(reason) { $0.id == id && (group == nil || $0.group == group) }
    }

    /// Cancels every task on `volume` (it went away).
    public func cancel(volume: String, reason: String = "cancelled") { cancel(reason) { $0.volume == volume } }

    /// Cancels every task of `group`.
    public func cancel(group: String, reason: String = "cancelled") { cancel(reason) { $0.group == group } }

    /// Cancels everything (the program quits).
    public func cancelAll() { cancel("cancelled") { _ in true } }

    /// Whether a task of `group` is waiting or running.
    public func isBusy(group: String) -> Bool { queue.withLock { $0.items.values.contains { $0.listing.group == group } } }

    private func cancel(_ reason: String, where matches: (Listing) -> Bool) {
        var contexts: [Context] = []
        var early: [Item] = []
        queue.withLock { queue in
            for (id, item) in queue.items where matches(item.listing) && !item.listing.isCancelled {
                queue.items[id]?.listing.isCancelled = true
                contexts.append(item.context)
                if item.listing.phase == .queued {
                    queue.items[id]?.listing.phase = .running
                    early.append(item)
                }
            }
        }
        for context in contexts { context.cancel(reason: reason) }
        for item in early { run(item) }
        // A cancelled task no longer holds its slot (it may be stuck in the kernel).
        startWhatFits()
    }

    private func progress(_ id: Int, _ report: Report) {
        let known = queue.withLock { queue -> Bool in
            guard queue.items[id] != nil else { return false }
            queue.items[id]?.listing.report = report
            return true
        }
        if known { observer(.progress(id, report)) }
    }

    /// Starts queued tasks while the limits allow, the first in priority order first; a task
    /// whose volume is full waits without holding back the ones behind it on other volumes.
    private func startWhatFits() {
        let starting = queue.withLock { queue -> [Item] in
            var running = queue.items.values.filter { $0.listing.phase == .running && !$0.listing.isCancelled }
            var started: [Item] = []
            let waiting = queue.items.values.filter { $0.listing.phase == .queued }.sorted(by: Self.comesFirst)
            for item in waiting where running.count < limit {
                let volume = item.listing.volume, group = item.listing.group
                guard running.filter({ $0.listing.volume == volume }).count < perVolume(volume),
                      running.filter({ $0.listing.group == group }).count < perGroup(group) else { continue }
                queue.items[item.listing.id]?.listing.phase = .running
                running.append(item)
                started.append(item)
            }
            return started
        }
        for item in starting { run(item) }
    }

    private func run(_ item: Item) {
        let id = item.listing.id, context = item.context, work = item.work, priority = item.listing.priority.taskPriority
        observer(.started(id))
        launch { [weak self] in
            var outcome = Outcome.finished
            // The work runs in a task of its own, so that cancelling reaches what it awaits.
            let task = Task(priority: priority) { try await work(context) }
            context.onCancel { task.cancel() }
            do {
                try await task.value
                if context.isCancelled { outcome = .cancelled }
            } catch is CancellationError {
                outcome = .cancelled
            } catch {
                outcome = context.isCancelled ? .cancelled : .failed("\(error)")
            }
            self?.ended(id, outcome)
        }
    }

    private func ended(_ id: Int, _ outcome: Outcome) {
        _ = queue.withLock { $0.items.removeValue(forKey: id) }
        observer(.ended(id, outcome))
        startWhatFits()
    }

    private static func comesFirst(_ a: Item, _ b: Item) -> Bool {
        a.listing.priority != b.listing.priority ? a.listing.priority > b.listing.priority : a.order < b.order
    }
}
