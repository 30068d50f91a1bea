/// A monotonic clock, injectable: production code reads `SystemTime`, tests drive `ManualTime`.
/// Deadlines, stall detection and "how long did that take" all read one of these.
public protocol TimeSource: Sendable {
    /// Nanoseconds on a monotonic clock (only differences mean anything).
    func now() -> Int64
}
