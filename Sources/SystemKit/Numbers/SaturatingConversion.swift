/// Double to integer without a trap: Swift's `Int64(someDouble)` stops the process (SIGILL) when
/// the value is NaN, infinite or out of range, and such values come from users (`--timeout 1e10`),
/// config files and untrusted files (a video's duration, a PDF page's size). Where a number from
/// outside becomes an integer, it goes through this.
extension FixedWidthInteger {
    /// `value` rounded toward zero, clamped to the type's range; NaN is 0.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Self.max) {
            // Double(Int64.max) rounds up to 2^63, itself out of range: anything at or above it is max.
            self = .max
        } else if value <= Double(Self.min) {
            self = .min
        } else {
            self.init(value)
        }
    }
}
