import Testing
@testable import BrowserUI
import FileSystemKit
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Bulk rename's file in `$EDITOR`: names that are not UTF-8 are shown as `\xNN` escapes a person
/// can edit, and a list saved with CRLF line ends is still one line per name.
@Suite struct NamesEditorTests {
    private func edit(_ names: [String], editing: @escaping (String) -> String) -> (shown: String, result: [String]?) {
        nonisolated(unsafe) var shown = ""
        let result = NamesEditor.edit(names, environment: ["TMPDIR": "/tmp", "EDITOR": "true"]) { command in
            let path = command.last!
            shown = String(decoding: FileDescriptorReader.readFile(path, upTo: 1 << 20) ?? [], as: UTF8.self)
            let fd = open(path, O_WRONLY | O_TRUNC)
            _ = FileDescriptorWriter.writeAll(Array(editing(shown).utf8), to: fd)
            close(fd)
            return 0
        }
        return (shown, result)
    }

    @Test func rawBytesAreEditableEscapesThatComeBackAsTheBytes() {
        let latin1 = String(fileSystemBytes: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        let twin = "caf\u{FFFD}.jpg"
        let (shown, result) = edit([latin1, twin, "back\\slash", "two\nlines"]) { $0.replacingOccurrences(of: "caf\\xE9", with: "caf\\xE9-old") }
        #expect(shown == "caf\\xE9.jpg\ncaf\u{FFFD}.jpg\nback\\\\slash\ntwo\\nlines\n")
        #expect(result?.map(\.fileSystemBytes) == [Array("caf".utf8) + [0xE9] + Array("-old.jpg".utf8), Array(twin.utf8), Array("back\\slash".utf8), Array("two\nlines".utf8)])
    }

    @Test func aListSavedWithCRLFLineEndsIsOneLinePerName() {
        let (_, result) = edit(["a.jpg", "b.jpg", "c.jpg", "d.jpg"]) { _ in "1.jpg\r\n2.jpg\r\n3.jpg\r\n4.jpg\r\n" }
        #expect(result == ["1.jpg", "2.jpg", "3.jpg", "4.jpg"])
    }

    @Test func aListSavedWithLFLineEndsIsReadAsBefore() {
        #expect(edit(["a", "b"]) { _ in "x\ny\n" }.result == ["x", "y"])
        #expect(edit(["a", "b"]) { _ in "x\n\n" }.result == ["x", ""], "an emptied line stays, for the plan to name")
        #expect(edit(["a", "b"]) { _ in "x\r\ny" }.result == ["x", "y"], "no line end after the last line")
    }
}
