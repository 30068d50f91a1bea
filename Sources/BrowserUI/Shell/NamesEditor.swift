import FileSystemKit
import SystemKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Names for a bulk rename, in the user's editor: written one per line to a private temporary
/// file, the editor run on it, the lines read back. Nil when the editor failed, or quit without
/// writing (the file is unchanged), so that nothing is renamed by accident.
enum NamesEditor {
    static func edit(_ names: [String], environment: [String: String], run: ([String]) -> Int32) -> [String]? {
        var template = Array(((environment["TMPDIR"] ?? "/tmp") + "/qlbrowse-names-XXXXXX.txt").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else { return nil }
        let path = String(cString: template)
        defer { unlink(path) }
        let written = FileDescriptorWriter.writeAll(Array((names.joined(separator: "\n") + "\n").utf8), to: fd)
        close(fd)
        guard written, let before = PathStamp.of(path) else { return nil }
        let editor = (environment["VISUAL"] ?? environment["EDITOR"] ?? "vi").split(separator: " ").map(String.init)
        guard run(editor + [path]) == 0, PathStamp.of(path) != before,
              let text = try? String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8) else { return nil }
        return lines(of: text)
    }

    /// The lines of what the editor saved, LF or CRLF line ends alike (an editor set to DOS line
    /// ends, or a list pasted from Windows). Split on the scalars: in a Swift String "\r\n" is one
    /// Character, so splitting on the Character "\n" would find a CRLF file to be one line.
    static func lines(of text: String) -> [String] {
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(String.UnicodeScalarView(line.last == "\r" ? line.dropLast() : line))
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
