import Testing
@testable import SystemKit

@Suite struct TimeSourceTests {
    @Test func manualTimeMovesOnlyWhenTold() {
        let clock = ManualTime(1_000)
        #expect(clock.now() == 1_000)
        #expect(clock.now() == 1_000)
        clock.advance(by: 500)
        #expect(clock.now() == 1_500)
        clock.advance(seconds: 2)
        #expect(clock.now() == 2_000_001_500)
        clock.set(42)
        #expect(clock.now() == 42)
    }

    @Test func systemTimeIsMonotonic() {
        let first = SystemTime.now()
        let second = SystemTime().now()
        #expect(second >= first)
        #expect(first > 0)
    }

    @Test func aHeartbeatReadsTheInjectedClock() {
        let clock = ManualTime(5)
        let heartbeat = VolumeIO.Heartbeat(clock: clock)
        #expect(heartbeat.last.load(ordering: .relaxed) == 5)
        clock.advance(by: 10)
        heartbeat.beat()
        #expect(heartbeat.last.load(ordering: .relaxed) == 15)
    }
}
