/// Makes text from outside (file names, tags, file content) safe to show on a terminal:
/// control characters, escape sequences and bidirectional overrides become visible escapes,
/// so a file named `\e]0;pwned\a.txt` is shown as such and does nothing.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x1B: out += "\\e"
            case 0x07: out += "\\a"
            case 0x08: out += "\\b"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x00..<0x20, 0x7F, 0x80..<0xA0:
                out += "\\x" + hex(scalar.value, digits: 2)
            case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C:
                out += "\\u{" + hex(scalar.value, digits: 4) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// File names arrive as bytes; invalid UTF-8 is shown as `\xNN` escapes rather than dropped.
    public static func escaped(bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            let (scalar, length) = decodeScalar(bytes, at: index)
            if let scalar {
                out += escaped(String(Character(scalar)))
            } else {
                out += "\\x" + hex(UInt32(bytes[index]), digits: 2)
            }
            index += max(length, 1)
        }
        return out
    }

    private static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar?, Int) {
        let first = bytes[index]
        let length = first < 0x80 ? 1 : first >> 5 == 0b110 ? 2 : first >> 4 == 0b1110 ? 3 : first >> 3 == 0b11110 ? 4 : 0
        guard length > 0, index + length <= bytes.count else { return (nil, 1) }
        var iterator = bytes[index..<(index + length)].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return (scalar, length) }
        return (nil, 1)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
