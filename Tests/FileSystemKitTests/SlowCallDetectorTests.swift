import FileSystemKit
import Testing

/// When a listing starts reading a folder's entries on many threads: only once `stat` is slow
/// again and again, not after one slow call (on a busy machine, a thread that lost the processor).
@Suite struct SlowCallDetectorTests {
    static let slow: Int64 = 5_000_000
    static let quick: Int64 = 50_000

    @Test func oneSlowCallAmongQuickOnesIsNotSlowness() {
        var detector = SlowCallDetector()
        var verdicts: [Bool] = []
        for index in 0..<200 { verdicts.append(detector.record(index == 3 || index == 90 ? Self.slow : Self.quick)) }
        #expect(!verdicts.contains(true))
    }

    @Test func aShareWhoseEveryCallIsSlowIsFoundOnItsFourthCall() {
        var detector = SlowCallDetector()
        let verdicts = (0..<6).map { _ in detector.record(Self.slow) }
        #expect(verdicts == [false, false, false, true, true, true])
    }

    @Test func slowCallsCountOnlyWhileTheyAreAmongTheLastSixteen() {
        var detector = SlowCallDetector()
        for _ in 0..<3 { _ = detector.record(Self.slow) }
        for _ in 0..<13 { _ = detector.record(Self.quick) }
        // The three slow ones are still within the last 16: a fourth makes it slowness.
        let afterTheFirstLeft = detector.record(Self.slow)
        #expect(!afterTheFirstLeft, "the first slow call has just left the window")
        var again = SlowCallDetector()
        for _ in 0..<3 { _ = again.record(Self.slow) }
        for _ in 0..<12 { _ = again.record(Self.quick) }
        let withAllThree = again.record(Self.slow)
        #expect(withAllThree, "three slow calls among the last fifteen, and this one")
    }

    @Test func aShareWhoseEverySixthCallTakesTwelveMillisecondsIsSlowToo() {
        var detector = SlowCallDetector()
        let verdicts = (0..<40).map { index in detector.record(index % 6 == 5 ? 12_000_000 : Self.quick) }
        // Three slow calls at most among any 16, but 36 ms spent in them by the 18th call.
        #expect(verdicts.firstIndex(of: true) == 17)
    }

    @Test func oneLongPauseAloneIsNotSlownessButTwoAre() {
        var detector = SlowCallDetector()
        let first = (0..<8).map { index in detector.record(index == 2 ? 20_000_000 : Self.quick) }
        #expect(!first.contains(true), "20 ms once: a thread that lost the processor")
        let second = detector.record(20_000_000)
        #expect(second, "40 ms within 16 calls")
    }

    @Test func theThresholdIsStrict() {
        var detector = SlowCallDetector(thresholdNanoseconds: 2_000_000, needed: 1)
        let atTheThreshold = detector.record(2_000_000)
        let justOver = detector.record(2_000_001)
        #expect(!atTheThreshold)
        #expect(justOver)
    }
}
