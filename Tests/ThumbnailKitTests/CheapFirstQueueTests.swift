import Testing
@testable import ThumbnailKit

/// What a worker takes next: the first cheap item, else the first; a cheap-only slot nothing else.
@Suite struct CheapFirstQueueTests {
    private func queue(_ items: [String]) -> CheapFirstQueue<String> {
        var queue = CheapFirstQueue<String> { $0.hasPrefix("cheap") }
        for item in items { queue.append(item) }
        return queue
    }

    @Test func cheapItemsGoFirstInTheirOrderThenTheRestInTheirs() {
        var waiting = queue(["full 1", "cheap 1", "full 2", "cheap 2"])
        var served: [String] = []
        while let next = waiting.next() { served.append(next) }
        #expect(served == ["cheap 1", "cheap 2", "full 1", "full 2"])
        #expect(waiting.isEmpty)
    }

    @Test func aCheapOnlySlotTakesNothingElse() {
        var waiting = queue(["full 1", "cheap 1"])
        #expect(waiting.next(cheapOnly: true) == "cheap 1")
        #expect(waiting.next(cheapOnly: true) == nil)
        #expect(!waiting.hasCheap && !waiting.isEmpty)
        #expect(waiting.next() == "full 1")
    }

    @Test func takingOutACheapItemKeepsTheCountTrue() {
        var waiting = queue(["cheap 1", "full 1"])
        #expect(waiting.takeOut { $0 == "cheap 1" } == "cheap 1")
        #expect(!waiting.hasCheap)
        #expect(waiting.next(cheapOnly: true) == nil)
        #expect(waiting.removeAll() == ["full 1"])
        #expect(waiting.isEmpty)
    }
}
