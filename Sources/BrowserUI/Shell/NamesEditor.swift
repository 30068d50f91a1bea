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
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
