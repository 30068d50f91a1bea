import Synchronization

/// A clock that moves only when told to, so tests of deadlines and stalls run instantly and
/// exactly: `advance(by:)` is the only way time passes.
public final class ManualTime: TimeSource {
    private let current: Atomic<Int64>

    /// A clock that reads `start` nanoseconds until moved.
    public init(_ start: Int64 = 0) { current = Atomic(start) }

    /// The time the clock was last set or moved to.
    public func now() -> Int64 { current.load(ordering: .acquiring) }

    /// Moves the clock forward (or back) by `nanoseconds`.
    public func advance(by nanoseconds: Int64) { current.add(nanoseconds, ordering: .acquiringAndReleasing) }

    /// Moves the clock forward by `seconds`.
    public func advance(seconds: Double) { advance(by: Int64(seconds * 1e9)) }

    /// Sets the clock to `nanoseconds`.
    public func set(_ nanoseconds: Int64) { current.store(nanoseconds, ordering: .releasing) }
}
