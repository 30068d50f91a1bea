import FileSystemKit
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Names for a bulk rename, in the user's editor: written one per line to a private temporary
/// file (each as an `EditableName`: bytes that are not UTF-8 as `\xNN`), the editor run on it,
/// the lines read back. Nil when the editor failed, or quit without
/// writing (the file is unchanged), so that nothing is renamed by accident.
enum NamesEditor {
    static func edit(_ names: [String], environment: [String: String], run: ([String]) -> Int32) -> [String]? {
        var template = ((environment["TMPDIR"] ?? "/tmp") + "/qlbrowse-names-XXXXXX.txt").fileSystemBytes.map { CChar(bitPattern: $0) } + [0]
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else { return nil }
        let path = String(fileSystemRepresentation: template)
        defer { unlink(path) }
        let written = FileDescriptorWriter.writeAll(Array((names.map(EditableName.encode).joined(separator: "\n") + "\n").utf8), to: fd)
        close(fd)
        guard written, let before = PathStamp.of(path) else { return nil }
        let editor = (environment["VISUAL"] ?? environment["EDITOR"] ?? "vi").split(separator: " ").map(String.init)
        guard run(editor + [path]) == 0, PathStamp.of(path) != before,
              let text = FileDescriptorReader.readFile(path, upTo: 64 << 20).map({ String(decoding: $0, as: UTF8.self) }) else { return nil }
        return lines(of: text)
    }

    /// The names the editor saved, one a line, LF or CRLF line ends alike (an editor set to DOS
    /// line ends, or a list pasted from Windows), each read back from its `EditableName` escapes.
    /// Split on the scalars: in a Swift String "\r\n" is one Character, so splitting on the
    /// Character "\n" would find a CRLF file to be one line.
    static func lines(of text: String) -> [String] {
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(String.UnicodeScalarView(line.last == "\r" ? line.dropLast() : line))
        }
        if lines.last == "" { lines.removeLast() }
        return lines.map(EditableName.decode)
    }
}
