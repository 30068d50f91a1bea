import Testing
@testable import ThumbnailKit

@Suite struct NewestFirstQueueTests {
    private func drain(_ queue: inout NewestFirstQueue<String>) -> [String] {
        var out: [String] = []
        while let (handle, item) = queue.next() { out.append("\(handle):\(item)") }
        return out
    }

    @Test func theNewestListGoesFirstEachInItsOrder() {
        var queue = NewestFirstQueue<String>()
        queue.push(1, ["a", "b"])
        queue.push(2, ["c", "d"])
        #expect(drain(&queue) == ["2:c", "2:d", "1:a", "1:b"])
        #expect(queue.isEmpty)
    }

    @Test func aListQueuedMidwayOvertakesTheOneBeingServed() {
        var queue = NewestFirstQueue<String>()
        queue.push(1, ["a", "b", "c"])
        #expect(queue.next()?.item == "a")
        queue.push(2, ["x"])
        #expect(drain(&queue) == ["2:x", "1:b", "1:c"])
    }

    @Test func removingAListGivesBackWhatHadNotStarted() {
        var queue = NewestFirstQueue<String>()
        queue.push(1, ["a", "b", "c"])
        queue.push(2, ["x"])
        queue.push(3, [])
        #expect(queue.next()?.item == "x")
        #expect(queue.next()?.item == "a")
        #expect(queue.waiting(in: 1) == 2)
        #expect(queue.takeOut(1) == ["b", "c"])
        #expect(queue.takeOut(2) == [])
        #expect(queue.isEmpty)
    }

    /// A list given out in parts (the D-Bus thumbnailer's non-photos, then the photos without a
    /// preview of their own) stays one list in its place: taking it out takes both parts.
    @Test func itemsPushedForAWaitingListJoinItsEnd() {
        var queue = NewestFirstQueue<String>()
        queue.push(1, ["a"])
        queue.push(2, ["x", "y"])
        queue.push(1, ["b"])
        #expect(queue.next()?.item == "x")
        #expect(queue.takeOut(1) == ["a", "b"])
        #expect(drain(&queue) == ["2:y"])
        queue.push(3, ["p"])
        #expect(queue.next()?.item == "p")
        queue.push(3, ["q"])
        #expect(drain(&queue) == ["3:q"], "a list handed out whole is gone: the next part is a list again")
    }
}
