import Testing
@testable import SystemKit

/// Doubles from outside (options, config, a file's duration) become integers without a trap.
struct SaturatingConversionTests {
    @Test func valuesOutOfRangeClampAndNaNIsZero() {
        #expect(Int64(saturating: 1e10 * 1e9) == .max)
        #expect(Int64(saturating: .infinity) == .max)
        #expect(Int64(saturating: -.infinity) == .min)
        #expect(Int64(saturating: .nan) == 0)
        #expect(Int64(saturating: 9.223372036854775807e18) == .max, "2^63 rounds to a Double just past Int64.max")
        #expect(Int64(saturating: -9.223372036854775808e18) == .min)
        #expect(UInt64(saturating: -1) == 0)
        #expect(UInt32(saturating: 5e9) == .max)
        #expect(Int32(saturating: -3e9) == .min)
    }

    @Test func valuesInRangeConvertAsBefore() {
        #expect(Int(saturating: 2.9) == 2)
        #expect(Int(saturating: -2.9) == -2)
        #expect(Int64(saturating: 1.5e15) == 1_500_000_000_000_000)
        #expect(UInt64(saturating: 1e19) == 10_000_000_000_000_000_000)
    }
}
