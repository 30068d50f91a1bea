import Dispatch
import Synchronization
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Runs filesystem calls on threads of their own, per volume, so that nothing else ever waits on
/// them. A call on a dead FUSE or SMB mount can sleep in the kernel forever (D state: no signal
/// frees it), so each call has a deadline: past it the caller hears `.timedOut` and moves on, the
/// thread is abandoned and counted, and a volume with stuck calls gets no new ones until they
/// return. The number of abandoned threads is capped for the whole process.
public final class VolumeIO: Sendable {
    public static let shared = VolumeIO()

    /// What became of a call.
    public enum Outcome<Value: Sendable>: Sendable {
        case done(Value)
        /// Past its deadline; the call may still finish later (its result is then dropped).
        case timedOut
        /// Not started: the volume has calls stuck in the kernel, or too many threads are abandoned.
        case refused
    }

    private struct Counts {
        var running: [String: Int] = [:]
        var stuck: [String: Int] = [:]
        var abandoned = 0
    }

    private let counts = Mutex(Counts())
    /// At most this many threads may be stuck past their deadline in the whole process.
    public let maximumAbandoned: Int

    public init(maximumAbandoned: Int = 24) {
        self.maximumAbandoned = maximumAbandoned
    }

    /// Whether `volume` (a mount point) has no call stuck past its deadline.
    public func isResponding(_ volume: String) -> Bool { counts.withLock { $0.stuck[volume, default: 0] == 0 } }

    /// Threads currently stuck past their deadline, all volumes together.
    public var abandonedCount: Int { counts.withLock { $0.abandoned } }

    /// Shows that a long call (a listing) still makes progress: each beat restarts its deadline.
    public final class Heartbeat: Sendable {
        fileprivate let last = Atomic<Int64>(VolumeIO.now())
        public func beat() { last.store(VolumeIO.now(), ordering: .relaxed) }
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
        let admitted = counts.withLock { counts -> Bool in
            guard counts.stuck[volume, default: 0] == 0, counts.abandoned < maximumAbandoned else { return false }
            counts.running[volume, default: 0] += 1
            return true
        }
        guard admitted else {
            completion(.refused)
            return
        }
        let settled = Atomic<Bool>(false)
        let heartbeat = Heartbeat()
        let limit = Int64(deadline * 1e9)
        @Sendable func check() {
            let remaining = heartbeat.last.load(ordering: .relaxed) + limit - VolumeIO.now()
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
            counts.withLock { counts in
                counts.running[volume, default: 1] -= 1
                if !inTime {
                    counts.stuck[volume, default: 1] -= 1
                    counts.abandoned -= 1
                }
            }
            if inTime { completion(.done(value)) }
        }
        // A small stack: a stuck thread costs little while it waits. With no thread to be had,
        // the call runs here rather than being lost.
        if !DetachedThread.start(stackSize: 256 * 1024, body) { body() }
    }

    public static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
