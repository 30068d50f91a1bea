import Foundation
import Testing
@testable import FileSystemKit
import SystemKit

/// A FIFO (or a device) among what is copied is refused at once and named, never read (a FIFO
/// with no writer would hold the job forever), and the item is not done: a move keeps its source.
@Suite struct SpecialFileCopyTests {
    @Test func aFIFOIsRefusedAtOnceAloneOrInsideAFolder() throws {
        let root = NSTemporaryDirectory() + "qlbrowse-fifo-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in [root + "/src/album", root + "/dst"] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        #expect(mkfifo(root + "/src/pipe.jpg", 0o644) == 0 && mkfifo(root + "/src/album/inner", 0o644) == 0)
        FileManager.default.createFile(atPath: root + "/src/album/a.txt", contents: Data("a".utf8))
        let started = Date()
        let report = FileOperation(kind: .copy, sources: [root + "/src/pipe.jpg", root + "/src/album"], destination: root + "/dst")
            .run(trash: nil, resolve: { _ in (.skip, true) }, progress: { _ in })
        #expect(Date().timeIntervalSince(started) < 5, "a FIFO held the copy")
        #expect(report.done.isEmpty && report.notDone.count == 2, "\(report.summary)")
        #expect(report.failures.allSatisfy { $0.contains("is a FIFO, not copied") }, "\(report.failures)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: root + "/dst")) ?? ["?"]).isEmpty, "nothing partial left")
    }
}
