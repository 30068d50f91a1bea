import SystemKit

/// A file name as one line of text a person can edit and that comes back as the same bytes: the
/// form bulk rename writes into `$EDITOR`. Bytes that are not UTF-8 are `\xNN`, control
/// characters `\n`, `\t`, `\r`, `\e` or `\xNN`, and a backslash is `\\`, so no name is ever cut
/// in two lines or turned into another one; a name with none of these is written as it is.
public enum EditableName {
    /// The line for `name` (a name as `FileSystemBytes` carries it).
    public static func encode(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            if let byte = FileSystemBytes.byte(for: scalar) {
                out += "\\x" + hex(byte)
                continue
            }
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0x1B: out += "\\e"
            case 0x00..<0x20, 0x7F: out += "\\x" + hex(UInt8(scalar.value))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The name a line stands for: the escapes of `encode` read back into their bytes. A
    /// backslash before anything else is kept as it is.
    public static func decode(_ line: String) -> String {
        var bytes: [UInt8] = []
        let input = line.fileSystemBytes
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < input.count else {
                bytes.append(byte)
                index += 1
                continue
            }
            switch input[index + 1] {
            case UInt8(ascii: "\\"): bytes.append(0x5C); index += 2
            case UInt8(ascii: "n"): bytes.append(0x0A); index += 2
            case UInt8(ascii: "t"): bytes.append(0x09); index += 2
            case UInt8(ascii: "r"): bytes.append(0x0D); index += 2
            case UInt8(ascii: "e"): bytes.append(0x1B); index += 2
            case UInt8(ascii: "x") where index + 3 < input.count && hexValue(input[index + 2], input[index + 3]) != nil:
                bytes.append(hexValue(input[index + 2], input[index + 3])!)
                index += 4
            default:
                bytes.append(byte)
                index += 1
            }
        }
        return String(fileSystemBytes: bytes)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    private static func hexValue(_ high: UInt8, _ low: UInt8) -> UInt8? {
        guard let high = digit(high), let low = digit(low) else { return nil }
        return high << 4 | low
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
