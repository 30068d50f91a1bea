@testable import Places
import Synchronization
import Testing

/// Whole-file reads over SFTP take turns: no more than the slots at once, the waiting served in
/// the order they asked, and one cancelled while waiting leaves without taking a turn.
struct SFTPDownloadTurnsTests {
    @Test func waitersAreServedInOrderAndACancelledOneLeaves() async throws {
        let turns = SFTPDownloadTurns(slots: 1)
        #expect(await turns.take(), "a free slot is taken at once")
        let order = Order()
        let second = Task { let got = await turns.take(); order.add(2); return got }
        try await Task.sleep(for: .milliseconds(50))
        let cancelled = Task { await turns.take() }
        try await Task.sleep(for: .milliseconds(50))
        let third = Task { let got = await turns.take(); order.add(3); return got }
        try await Task.sleep(for: .milliseconds(50))
        #expect(order.all.isEmpty, "nobody got a turn while the one slot was held")
        cancelled.cancel()
        #expect(await cancelled.value == false, "a cancelled waiter leaves without a turn")
        turns.give()
        #expect(await second.value)
        try await Task.sleep(for: .milliseconds(50))
        #expect(order.all == [2], "the cancelled waiter's leaving gave nobody a second turn")
        turns.give()
        #expect(await third.value)
        #expect(order.all == [2, 3])
    }

    /// Who got a turn, in order.
    private final class Order: Sendable {
        private let taken = Mutex<[Int]>([])
        func add(_ who: Int) { taken.withLock { $0.append(who) } }
        var all: [Int] { taken.withLock { $0 } }
    }
}
