import Foundation
import Testing

/// Copy, move, rename, trash and delete through the real browser in a pseudo-terminal, checked on
/// disk: clashes, the freedesktop trash read back by trash-cli, a 500 MB cross-volume move cancelled
/// half-way, a copy onto a FUSE volume that vanishes mid-write (Tests/Support/file-ops.py).
@Suite(.serialized, .enabled(if: FileManager.default.fileExists(atPath: "/dev/fuse") && FileManager.default.fileExists(atPath: "/usr/bin/trash-list"),
                             "needs FUSE and trash-cli"))
struct FileOperationsTests {
    @Test func fileOperationsNeverLoseData() throws {
        let result = TestEnvironment.runScenario("file-ops.py", folder: "qlbrowse-fileops")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 10, "\(result.stdout)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/fusefat"), "needs fusefat"))
    func aFATStickRefusesWhatFATCannotHold() throws {
        let result = TestEnvironment.runScenario("stick.py", folder: "qlbrowse-stick")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 3, "\(result.stdout)")
    }
}
