@testable import Places
import Synchronization
import Testing

/// The order `qlbrowse serve` makes thumbnails in: as asked, `width` at a time.
@Suite struct RemoteThumbnailTurnsTests {
    @Test func requestsRunInTheOrderAskedAFewAtATime() {
        let turns = RemoteThumbnailTurns(width: 2)
        let started = Mutex<[Int]>([])
        for index in 0..<5 { turns.enter { started.withLock { $0.append(index) } } }
        #expect(started.withLock { $0 } == [0, 1], "two run, the rest wait")
        turns.leave()
        #expect(started.withLock { $0 } == [0, 1, 2])
        turns.leave(); turns.leave(); turns.leave()
        #expect(started.withLock { $0 } == [0, 1, 2, 3, 4], "each in its turn, in the order asked")
        // Every turn over (five left, two of them the first ones'): a new request starts at once.
        turns.leave()
        turns.enter { started.withLock { $0.append(5) } }
        #expect(started.withLock { $0 }.last == 5)
    }
}
