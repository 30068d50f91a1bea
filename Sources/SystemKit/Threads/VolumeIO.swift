import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one way the program makes a call that may block in the kernel: on a thread of its own,
/// so nothing else ever waits on it. A call on a dead FUSE or SMB mount can sleep in the kernel
/// forever (D state: no signal frees it), and the cooperative pool has one thread per core.
///
/// Two shapes share the same threads and counts: `run(volume:deadline:_:completion:)` (the
/// browser's: past the deadline the caller hears `.timedOut` and moves on, the thread is
/// abandoned and counted, and a volume with stuck calls gets no new ones until they return) and
/// `call(volume:_:)` (the engine's: awaited, and cancelling the awaiting task returns at once).
/// Abandoned threads are capped, and so are threads outstanding, for the whole instance.
public final class VolumeIO: Sendable {
    /// The browser's: listings, sizes, probes and renames, per volume, 24 abandoned threads at most.
    public static let shared = VolumeIO()

    /// What became of a call.
    public enum Outcome<Value: Sendable>: Sendable {
        case done(Value)
        /// Past its deadline; the call may still finish later (its result is then dropped).
        case timedOut
        /// Not started: the volume has calls stuck in the kernel, or too many threads are abandoned.
        case refused
    }

    struct Counts {
        var running: [String: Int] = [:]
        var stuck: [String: Int] = [:]
        var abandoned = 0
        var outstanding = 0
    }

    let counts = Mutex(Counts())
    /// At most this many threads may be stuck past their deadline in the whole process.
    public let maximumAbandoned: Int
    /// At most this many threads may be started and not yet returned (stuck ones included).
    public let maximumOutstanding: Int
    /// The clock deadlines and heartbeats are measured on.
    public let clock: any TimeSource

    /// A separate set of threads and counts (tests, or the engine's `VolumeIO.engine`); `clock` measures deadlines.
    public init(maximumAbandoned: Int = 24, maximumOutstanding: Int = .max, clock: any TimeSource = SystemTime()) {
        self.maximumAbandoned = maximumAbandoned
        self.maximumOutstanding = maximumOutstanding
        self.clock = clock
    }

    /// Whether `volume` (a mount point) has no call stuck past its deadline.
    public func isResponding(_ volume: String) -> Bool { counts.withLock { $0.stuck[volume, default: 0] == 0 } }

    /// Threads currently stuck past their deadline, all volumes together.
    public var abandonedCount: Int { counts.withLock { $0.abandoned } }

    /// Threads started and not yet returned.
    public var outstandingCount: Int { counts.withLock { $0.outstanding } }

    /// Shows that a long call (a listing) still makes progress: each beat restarts its deadline.
    public final class Heartbeat: Sendable {
        let clock: any TimeSource
        let last: Atomic<Int64>
        init(clock: any TimeSource) {
            self.clock = clock
            last = Atomic(clock.now())
        }
        /// Restarts the deadline of the call this heartbeat belongs to.
        public func beat() { last.store(clock.now(), ordering: .relaxed) }
    }

    /// Runs `work` for `volume` on a new thread; `completion` (on that thread or a timer's) hears
    /// the result, or `.timedOut` after `deadline` seconds, exactly once.
    public func run<Value: Sendable>(volume: String, deadline: Double, _ work: @escaping @Sendable () -> Value,
                                     completion: @escaping @Sendable (Outcome<Value>) -> Void) {
        run(volume: volume, deadline: deadline, { _ in work() }, completion: completion)
    }

    /// Runs `work`, which beats its heartbeat as it makes progress; the deadline counts from the
    /// last beat, so a long listing that keeps coming is not taken for a stuck one.
    public func run<Value: Sendable>(volume: String, deadline: Double, _ work: @escaping @Sendable (Heartbeat) -> Value,
                                     completion: @escaping @Sendable (Outcome<Value>) -> Void) {
        guard admit(volume) else {
            completion(.refused)
            return
        }
        let settled = Atomic<Bool>(false)
        let heartbeat = Heartbeat(clock: clock)
        let limit = Int64(saturating: deadline * 1e9)
        @Sendable func check() {
            // Settled in time: nothing to wait for, no next check.
            guard !settled.load(ordering: .acquiring) else { return }
            let remaining = heartbeat.last.load(ordering: .relaxed) + limit - clock.now()
            if remaining > 0 {
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(remaining)), execute: check)
                return
            }
            guard settled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
            counts.withLock { counts in
                counts.stuck[volume, default: 0] += 1
                counts.abandoned += 1
            }
            completion(.timedOut)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: check)
        let body: @Sendable () -> Void = { [self] in
            let value = work(heartbeat)
            let inTime = settled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
            release(volume, wasAbandoned: !inTime)
            if inTime { completion(.done(value)) }
        }
        // A small stack: a stuck thread costs little while it waits. With no thread to be had,
        // the call runs here rather than being lost.
        if !DetachedThread.start(stackSize: 256 * 1024, body) { body() }
    }

    /// Counts a call in, or says no: its volume has a stuck call, or too many threads are
    /// abandoned or outstanding.
    func admit(_ volume: String?) -> Bool {
        counts.withLock { counts -> Bool in
            if let volume, counts.stuck[volume, default: 0] != 0 { return false }
            guard counts.abandoned < maximumAbandoned, counts.outstanding < maximumOutstanding else { return false }
            if let volume { counts.running[volume, default: 0] += 1 }
            counts.outstanding += 1
            return true
        }
    }

    /// Counts a call out once its thread has returned.
    func release(_ volume: String?, wasAbandoned: Bool) {
        counts.withLock { counts in
            counts.outstanding -= 1
            guard let volume else { return }
            counts.running[volume, default: 1] -= 1
            if wasAbandoned {
                counts.stuck[volume, default: 1] -= 1
                counts.abandoned -= 1
            }
        }
    }
}
