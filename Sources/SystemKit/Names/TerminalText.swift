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
            case FileSystemBytes.firstReserved...FileSystemBytes.lastReserved:
                // A byte of a name that is not UTF-8 (`FileSystemBytes`): shown as the byte it is.
                out += "\\x" + hex(scalar.value - 0xEF00, digits: 2)
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
        escaped(FileSystemBytes.string(from: bytes))
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
