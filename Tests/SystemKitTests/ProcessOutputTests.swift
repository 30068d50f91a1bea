import Foundation
import Testing
@testable import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// `ProcessOutput.lines`, which ripgrep's paths come through (Tab in `F`): an argument that is a
/// path goes as its bytes and a line comes back as its bytes (names that are not UTF-8), and a
/// cancel stops a program that prints nothing, within a poll or two.
@Suite struct ProcessOutputTests {
    @Test func aPathGoesAndComesBackAsItsBytes() throws {
        let root = NSTemporaryDirectory() + "qlbrowse-lines-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/" + String(fileSystemBytes: [0x64, 0xE9])
        let name = String(fileSystemBytes: Array("caf".utf8) + [0xE9, 0xFF])
        _ = mkdir(root, 0o755)
        _ = mkdir(folder, 0o755)
        _ = close(open(folder + "/" + name, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644))
        var lines: [String] = []
        #expect(ProcessOutput.lines(["ls", folder]) { lines.append($0); return true })
        #expect(lines.map(\.fileSystemBytes) == [name.fileSystemBytes], "\(lines)")
    }

    @Test func aCancelStopsAQuietProgram() {
        let started = SystemTime.now()
        var polls = 0
        let ran = ProcessOutput.lines(["sleep", "30"], isCancelled: {
            polls += 1
            return polls > 3
        }) { _ in true }
        #expect(ran)
        #expect(SystemTime.now() - started < 10_000_000_000, "stopped at the fourth poll, not after 30 s")
    }
}
