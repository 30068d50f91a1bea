@testable import Places
import Synchronization
import Testing

/// How `qlbrowse serve` sends a watched folder's changes (`.changes`): the names of a burst cross
/// together and once each, their bytes intact; too many become "list again"; the folder gone
/// sends what waits and ends; a cancelled watch sends nothing more. And the answer's shape: the
/// protocol's version that carries it, and that only `gone` ends the request.
@Suite struct RemoteWatchBatchesTests {
    final class Sent: Sendable {
        let batches = Mutex<[RemoteWatchBatches.Batch]>([])
        var all: [RemoteWatchBatches.Batch] { batches.withLock { $0 } }
    }

    /// Waits (up to 5 s, a hang guard) until `sent` holds `count` batches.
    static func wait(for count: Int, in sent: Sent) async {
        for _ in 0..<500 where sent.all.count < count { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test func aBurstOfAThousandNamesCrossesInOneMessageEachNameOnce() async {
        let sent = Sent()
        let batches = RemoteWatchBatches(wait: 0.1) { batch in sent.batches.withLock { $0.append(batch) } }
        for index in 0..<1000 { batches.changed(Array("file \(index)".utf8)) }
        // Written, then closed: the same name twice.
        batches.changed(Array("file 7".utf8))
        await Self.wait(for: 1, in: sent)
        try? await Task.sleep(for: .milliseconds(200))
        #expect(sent.all.count == 1)
        #expect(sent.all.first?.names.count == 1000)
        #expect(sent.all.first?.names.first == Array("file 0".utf8))
        #expect(sent.all.first?.relist == false)
        // A later change is a message of its own.
        batches.changed([0xE9])
        await Self.wait(for: 2, in: sent)
        #expect(sent.all.last?.names == [[0xE9]])
    }

    @Test func tooManyNamesOrALostTrackBecomeListAgain() async {
        let sent = Sent()
        let batches = RemoteWatchBatches(wait: 0.05, limit: 10) { batch in sent.batches.withLock { $0.append(batch) } }
        for index in 0..<11 { batches.changed(Array("n\(index)".utf8)) }
        await Self.wait(for: 1, in: sent)
        #expect(sent.all.first == RemoteWatchBatches.Batch(names: [], relist: true, gone: false))
        batches.changed(Array("a".utf8))
        batches.changed([])
        await Self.wait(for: 2, in: sent)
        #expect(sent.all.last == RemoteWatchBatches.Batch(names: [], relist: true, gone: false))
    }

    @Test func theFolderGoneSendsWhatWaitsAndEndsAndACancelSendsNothing() async {
        let sent = Sent()
        let batches = RemoteWatchBatches(wait: 0.05) { batch in sent.batches.withLock { $0.append(batch) } }
        batches.changed(Array("last".utf8))
        batches.gone()
        #expect(sent.all == [RemoteWatchBatches.Batch(names: [Array("last".utf8)], relist: false, gone: true)])
        batches.changed(Array("after".utf8))
        try? await Task.sleep(for: .milliseconds(150))
        #expect(sent.all.count == 1)

        let cancelled = Sent()
        let other = RemoteWatchBatches(wait: 0.05) { batch in cancelled.batches.withLock { $0.append(batch) } }
        other.changed(Array("x".utf8))
        other.end()
        try? await Task.sleep(for: .milliseconds(150))
        #expect(cancelled.all.isEmpty)
    }

    @Test func namesTravelAsTheirBytesAndABadPayloadIsRefused() {
        let names: [[UInt8]] = [Array("caf".utf8) + [0xE9], [0xFF, 0x20], Array("a b.txt".utf8)]
        let packed = RemoteWatchBatches.pack(names)
        #expect(RemoteWatchBatches.unpack(packed, count: 3) == names)
        #expect(RemoteWatchBatches.unpack(packed, count: 2) == nil)
        #expect(RemoteWatchBatches.unpack(Array(packed.dropLast()), count: 3) == nil)
        #expect(RemoteWatchBatches.unpack([], count: 0) == [])
        #expect(RemoteWatchBatches.unpack([0, 0], count: 2) == nil)
    }

    @Test func onlyTheFolderGoneEndsAWatchAndTheVersionSaysItIsNew() {
        #expect(!RemoteAnswer.changes(count: 3, relist: false, gone: false).endsRequest)
        #expect(!RemoteAnswer.changes(count: 0, relist: true, gone: false).endsRequest)
        #expect(RemoteAnswer.changes(count: 0, relist: false, gone: true).endsRequest)
        // Version 2 had no watch: a remote of that version is named as a mismatch.
        #expect(RemoteCodec.version >= 3)
    }
}
