import Foundation
import Testing
@testable import FileSystemKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `--verify` and `verify_copies`: the copy is read back and compared before it is put in place,
/// and that reading answers the volume's deadline, cancel and pause like the copy itself.
@Suite struct CopyVerificationTests {
    private func folder() throws -> String {
        let root = NSTemporaryDirectory() + "qlbrowse-verify-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/to", withIntermediateDirectories: true)
        return root
    }

    @Test func aVerifiedCopyIsComparedByteForByte() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: URL(fileURLWithPath: root + "/data.bin"))
        let report = FileOperation(kind: .copy, sources: [root + "/data.bin"], destination: root + "/to", verifiesContent: true)
            .run(trash: nil, resolve: { _ in (.skip, false) }, progress: { _ in })
        #expect(report.done.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/to/data.bin")) == Data(contentsOf: URL(fileURLWithPath: root + "/data.bin")))
        let input = open(root + "/data.bin", O_RDONLY)
        defer { close(input) }
        try "different".write(toFile: root + "/other.bin", atomically: false, encoding: .utf8)
        #expect(throws: FileCopier.Failure.self) { try FileCopier.compareContent(input, root + "/other.bin") }
    }

    /// CI: a 400 MB move with `--verify` was reported "not responding" after 30 s without a
    /// progress report; reading back reports progress (of no bytes) every 8 MB.
    @Test func readingBackReportsProgressAndAnswersCancel() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        FileManager.default.createFile(atPath: root + "/big.bin", contents: Data(repeating: 5, count: 40 << 20))
        let reports = Mutex<[Int64]>([])
        let verifying = FileCopier.Control(isCancelled: { false }, progress: { bytes in reports.withLock { $0.append(bytes) } })
        var leftover: String?
        try FileCopier.copy(root + "/big.bin", to: root + "/to/big.bin", replace: false, durable: false, verify: true, control: verifying, leftover: &leftover)
        let copied = reports.withLock { $0 }
        #expect(copied.reduce(0, +) == 40 << 20, "the bytes are counted once")
        #expect(copied.filter { $0 == 0 }.count >= 5, "a report every 8 MB of the 40 read back: \(copied)")

        // Cancelled once reading back has begun: stopped there, nothing put in place.
        let begun = Mutex(false)
        let cancelled = FileCopier.Control(isCancelled: { begun.withLock { $0 } }, progress: { bytes in if bytes == 0 { begun.withLock { $0 = true } } })
        #expect(throws: FileCopier.Failure.self) {
            try FileCopier.copy(root + "/big.bin", to: root + "/to/again.bin", replace: false, durable: false, verify: true, control: cancelled, leftover: &leftover)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/to") == ["big.bin"], "no copy and no temporary")
    }

    /// Each call copies what the last one's rate moves in about 0.1 s: it grows at most fourfold,
    /// shrinks at once when the disk slows, and stays within 1 MB to 1 GB.
    @Test func copyCallsFollowTheRate() {
        #expect(FileCopier.nextChunk(after: 8 << 20, took: 5_000_000) == 32 << 20)
        #expect(FileCopier.nextChunk(after: 512 << 20, took: 20_000_000_000) == Int(Double(512 << 20) / 20 * 0.1))
        #expect(FileCopier.nextChunk(after: 1 << 20, took: 10_000_000_000) == 1 << 20)
        #expect(FileCopier.nextChunk(after: 1 << 30, took: 50_000_000) == 1 << 30)
        #expect(FileCopier.nextChunk(after: 100 << 20, took: 0) == 400 << 20)
    }
}

