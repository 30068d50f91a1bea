import Synchronization
import Testing
@testable import Places

/// The prefix of a file known whole while its pieces are written out of order (#26's resumed
/// copies): it grows only over contiguous pieces, carries the hash of its last bytes, and is
/// told to the journal at most once per interval, the last one on `flush`.
@Suite struct PieceLedgerTests {
    final class Heard: Sendable {
        let prefixes = Mutex<[PieceLedger.Prefix]>([])
        var all: [PieceLedger.Prefix] { prefixes.withLock { $0 } }
    }

    @Test func thePrefixGrowsOnlyOverContiguousPieces() {
        let heard = Heard()
        let ledger = PieceLedger(interval: .zero) { prefix in heard.prefixes.withLock { $0.append(prefix) } }
        let pieces = (0..<4).map { index in (0..<100).map { UInt8(truncatingIfNeeded: $0 &+ index * 7) } }
        ledger.written(pieces[1], at: 100)
        ledger.written(pieces[3], at: 300)
        #expect(ledger.prefix.written == 0 && heard.all.isEmpty, "a hole at 0: nothing known whole")
        ledger.written(pieces[0], at: 0)
        #expect(ledger.prefix == PieceLedger.Prefix(written: 200, tailLength: 100, tailHash: PieceLedger.hash(pieces[1])))
        ledger.written(pieces[2], at: 200)
        #expect(ledger.prefix.written == 400 && ledger.prefix.tailHash == PieceLedger.hash(pieces[3]))
        #expect(heard.all.map(\.written) == [200, 400])
    }

    @Test func theTailIsTheLastBlockOfABigPieceAndTheJournalIsToldAtMostOncePerInterval() {
        let heard = Heard()
        let ledger = PieceLedger(interval: .seconds(3600)) { prefix in heard.prefixes.withLock { $0.append(prefix) } }
        let big = (0..<(PieceLedger.tailSize + 500)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        ledger.written(big, at: 0)
        ledger.written(big, at: big.count)
        #expect(heard.all.map(\.written) == [big.count], "the second within the interval waits")
        ledger.flush()
        #expect(heard.all.map(\.written) == [big.count, 2 * big.count])
        #expect(heard.all.last?.tailLength == PieceLedger.tailSize && heard.all.last?.tailHash == PieceLedger.hash(big.suffix(PieceLedger.tailSize)))
        ledger.flush()
        #expect(heard.all.count == 2, "nothing new: nothing told")
    }

    @Test func aResumedLedgerGoesOnFromItsStart() {
        let start = PieceLedger.Prefix(written: 1000, tailLength: 10, tailHash: 42)
        let ledger = PieceLedger(start: start, interval: .zero) { _ in }
        ledger.written([1, 2, 3], at: 1003)
        #expect(ledger.prefix == start)
        ledger.written([4, 5, 6], at: 1000)
        #expect(ledger.prefix.written == 1006 && ledger.prefix.tailHash == PieceLedger.hash([1, 2, 3] as [UInt8]))
    }
}
