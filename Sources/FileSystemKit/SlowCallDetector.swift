/// Tells calls that are slow again and again (a network share's round trips, a spinning disk's
/// seeks) from one that was slow once (on a busy machine a thread may lose the processor for a
/// few milliseconds in the middle of a `stat`). Keeps the last 16 calls' verdicts.
public struct SlowCallDetector: Sendable {
    /// A call taking longer than this is slow.
    public let threshold: Int64
    /// How many of the last 16 calls must have been slow.
    public let needed: Int
    private var history: UInt16 = 0

    public init(thresholdNanoseconds: Int64 = 2_000_000, needed: Int = 4) {
        threshold = thresholdNanoseconds
        self.needed = needed
    }

    /// Counts a call that took `nanoseconds`; true once enough of the recent ones were slow.
    public mutating func record(_ nanoseconds: Int64) -> Bool {
        history = history << 1 | (nanoseconds > threshold ? 1 : 0)
        return history.nonzeroBitCount >= needed
    }
}
