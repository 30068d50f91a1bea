#if canImport(Glibc)
import Glibc
#endif

/// The real monotonic clock (CLOCK_MONOTONIC): not moved by changes of the wall clock.
public struct SystemTime: TimeSource {
    /// The system's monotonic clock (it has no state).
    public init() {}

    /// Nanoseconds on CLOCK_MONOTONIC.
    public func now() -> Int64 { Self.now() }

    /// Nanoseconds on CLOCK_MONOTONIC, for call sites that have no clock injected.
    public static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Seconds on CLOCK_MONOTONIC.
    public static func seconds() -> Double { Double(now()) / 1e9 }
}
