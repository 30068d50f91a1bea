import FileSystemKit
import Foundation
@testable import Places
import Synchronization
import Testing

/// How `qlbrowse serve` sends a listing's batches: those a moment apart cross together (no
/// screen of the first 200 entries to re-sort), a slow listing still shows its entries as they
/// come, and nothing follows the last batch or a failure.
@Suite struct RemoteListingBatchesTests {
    /// A batch of `count` entries named from `first`.
    static func batch(_ first: Int, _ count: Int) -> EntryStore {
        var batch = EntryBatch()
        for index in first..<(first + count) {
            Array("photo\(index).jpg".utf8).withUnsafeBufferPointer {
                batch.append(name: $0, isDirectory: false, isSymbolicLink: false, size: 1, modified: 0, kind: .image)
            }
        }
        return EntryStore(batch)
    }

    final class Sent: Sendable {
        let batches = Mutex<[(count: Int, complete: Bool)]>([])
        var all: [(count: Int, complete: Bool)] { batches.withLock { $0 } }
    }

    @Test func batchesAMomentApartCrossTogether() {
        let sent = Sent()
        let batches = RemoteListingBatches(wait: 5) { store, complete in sent.batches.withLock { $0.append((store.count, complete)) } }
        batches.add(Self.batch(0, 200), complete: false)
        batches.add(Self.batch(200, 1800), complete: true)
        #expect(sent.all.map(\.count) == [2000] && sent.all.map(\.complete) == [true])
        batches.add(Self.batch(2000, 1), complete: true)
        #expect(sent.all.count == 1, "nothing after the last batch")
    }

    @Test func aSlowListingShowsWhatCameAfterTheWait() async throws {
        let sent = Sent()
        let batches = RemoteListingBatches(wait: 0.05) { store, complete in sent.batches.withLock { $0.append((store.count, complete)) } }
        batches.add(Self.batch(0, 200), complete: false)
        #expect(sent.all.isEmpty, "the first batch waits for the next")
        let deadline = Date().addingTimeInterval(30)
        while sent.all.isEmpty && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(sent.all.map(\.count) == [200] && sent.all.map(\.complete) == [false])
        batches.add(Self.batch(200, 10), complete: true)
        #expect(sent.all.map(\.count) == [200, 10] && sent.all.last?.complete == true)
    }

    @Test func nothingFollowsAFailure() async throws {
        let sent = Sent()
        let batches = RemoteListingBatches(wait: 0.02) { store, complete in sent.batches.withLock { $0.append((store.count, complete)) } }
        batches.add(Self.batch(0, 200), complete: false)
        batches.end()
        try await Task.sleep(for: .milliseconds(200))
        batches.add(Self.batch(200, 10), complete: true)
        #expect(sent.all.isEmpty)
    }
}
