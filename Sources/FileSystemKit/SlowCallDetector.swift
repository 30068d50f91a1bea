/// Tells calls that are slow again and again (a network share's round trips, a spinning disk's
/// seeks) from one that was slow once (on a busy machine a thread may lose the processor for a
/// few milliseconds in the middle of a `stat`). Looks at the last 16 calls: slowness is `needed`
/// of them over the threshold, or `slowTime` spent in those over it (a share whose every sixth
/// call takes 12 ms is slow too, though no 16 calls hold four slow ones).
public struct SlowCallDetector: Sendable {
    /// A call taking longer than this is slow.
    public let threshold: Int64
    /// How many of the last 16 calls must have been slow.
    public let needed: Int
    /// Or how long the slow ones among the last 16 must have taken in all.
    public let slowTime: Int64
    private var recent = [Int64](repeating: 0, count: 16)
    private var next = 0

    public init(thresholdNanoseconds: Int64 = 2_000_000, needed: Int = 4, slowTimeNanoseconds: Int64 = 25_000_000) {
        precondition((1...16).contains(needed), "needed is a count among the last 16 calls")
        threshold = thresholdNanoseconds
        self.needed = needed
        slowTime = slowTimeNanoseconds
    }

    /// Counts a call that took `nanoseconds`; true once the recent ones were slow enough.
    public mutating func record(_ nanoseconds: Int64) -> Bool {
        recent[next] = nanoseconds
        next = (next + 1) % recent.count
        // Counted in place: this runs once per stat of a listing, so no array is made for it.
        var slowCalls = 0
        var timeInSlowCalls: Int64 = 0
        for duration in recent where duration > threshold {
            slowCalls += 1
            timeInSlowCalls += duration
        }
        return slowCalls >= needed || timeInSlowCalls >= slowTime
    }
}
