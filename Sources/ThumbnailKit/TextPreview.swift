/// The first lines of a text file, made safe to draw or print: decoded (UTF-8, else Latin-1),
/// line endings unified, tabs expanded, control characters and escape sequences shown as
/// visible escapes (`\e`, `^G`) so nothing in a file can drive a terminal.
public enum TextPreview {
    public static func lines(from bytes: [UInt8], maxLines: Int, maxColumns: Int) -> [String] {
        let text = decode(bytes)
        var lines: [String] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            if lines.count == maxLines { break }
            lines.append(String(visible(String(raw), maxColumns: maxColumns)))
        }
        while lines.last?.isEmpty == true && lines.count > 1 { lines.removeLast() }
        return lines
    }

    /// UTF-8 when the bytes are (mostly) valid UTF-8, Latin-1 otherwise; a UTF-8 sequence cut at
    /// the end of the sample does not count against it.
    public static func decode(_ bytes: [UInt8]) -> String {
        var body = bytes
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        if body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0xFE, 0xFF]) { return decodeUTF16(body) }
        let utf8 = String(decoding: body, as: UTF8.self)
        let replacements = utf8.unicodeScalars.filter { $0 == "\u{FFFD}" }.count
        if replacements <= 2 { return utf8 }
        return String(body.map { Character(Unicode.Scalar($0)) })
    }

    private static func decodeUTF16(_ bytes: [UInt8]) -> String {
        let littleEndian = bytes[0] == 0xFF
        var units: [UInt16] = []
        var index = 2
        while index + 1 < bytes.count {
            units.append(littleEndian ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8 : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// A line with tabs expanded and every control character replaced by a visible escape, cut to `maxColumns`.
    public static func visible(_ line: String, maxColumns: Int) -> String {
        var out = ""
        var column = 0
        for scalar in line.unicodeScalars {
            if column >= maxColumns { break }
            switch scalar.value {
            case 0x09:
                let spaces = 4 - column % 4
                out += String(repeating: " ", count: spaces)
                column += spaces
            case 0x1B:
                out += "\\e"
                column += 2
            case 0x00..<0x20, 0x7F:
                out += "^" + String(Character(Unicode.Scalar((scalar.value + 0x40) & 0x7F) ?? "?"))
                column += 2
            case 0x80..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
                out += "\\u{\(String(scalar.value, radix: 16))}"
                column += 6
            default:
                out.unicodeScalars.append(scalar)
                column += 1
            }
        }
        return out
    }
}
