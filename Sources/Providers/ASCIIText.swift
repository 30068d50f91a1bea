/// Text files whose syntax is ASCII (the shared-mime-info database's `globs2`, `aliases` and
/// `subclasses`; `.thumbnailer` and `.previewer` desktop entries) read as bytes. Read as `String`
/// (characters, grapheme breaks, a `Set<Character>` per pattern) they cost a new worker ~90 M
/// instructions before its first answer.
enum ASCIIText {
    /// The lines of `bytes` without their line ends (LF, CR or both); empty lines left out.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
    }

    /// Whether the line is a `#` comment (the databases' and desktop entries' own).
    static func isComment(_ line: ArraySlice<UInt8>) -> Bool { line.first == UInt8(ascii: "#") }

    static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// `bytes` without the blanks (spaces, tabs) at either end.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let start = bytes.firstIndex { !isBlank($0) } ?? bytes.endIndex
        let end = bytes.lastIndex { !isBlank($0) }.map { $0 + 1 } ?? start
        return bytes[start..<max(start, end)]
    }

    /// `text` as a String, lower-cased where it is ASCII (MIME types are).
    static func lowercased(_ text: ArraySlice<UInt8>) -> String {
        String(decoding: text.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
    }

    static func string(_ text: ArraySlice<UInt8>) -> String {
        String(decoding: text, as: UTF8.self)
    }
}
