/// Reads one JSON value (RFC 8259) from bytes into a `JSONTree`, strictly: anything that is not
/// JSON, a string that is not UTF-8 or holds a lone surrogate, or nesting deeper than 64 gives nil.
struct JSONReader {
    private let bytes: [UInt8]
    private var index = 0
    private static let maximumDepth = 64

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { index == bytes.count }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
    }

    mutating func value(depth: Int) -> JSONTree? {
        skipSpace()
        guard index < bytes.count, depth <= Self.maximumDepth else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSONTree.string)
        case UInt8(ascii: "t"): return word("true", .bool(true))
        case UInt8(ascii: "f"): return word("false", .bool(false))
        case UInt8(ascii: "n"): return word("null", .null)
        default: return number()
        }
    }

    private mutating func word(_ text: StaticString, _ value: JSONTree) -> JSONTree? {
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected) else { return nil }
        index += expected.count
        return value
    }

    private mutating func object(depth: Int) -> JSONTree? {
        index += 1
        var members: [(key: String, value: JSONTree)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let value = value(depth: depth + 1) else { return nil }
            members.append((key, value))
            skipSpace()
            guard index < bytes.count else { return nil }
            index += 1
            switch bytes[index - 1] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array(depth: Int) -> JSONTree? {
        index += 1
        var items: [JSONTree] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            guard let item = value(depth: depth + 1) else { return nil }
            items.append(item)
            skipSpace()
            guard index < bytes.count else { return nil }
            index += 1
            switch bytes[index - 1] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return .array(items)
            default: return nil
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as its text.
    private mutating func number() -> JSONTree? {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
        let whole = digits()
        guard whole > 0, !(leadingZero && whole > 1) else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return nil }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    /// A string at `index` (its opening quote), its escapes read.
    private mutating func string() -> String? {
        index += 1
        var scalars = String.UnicodeScalarView()
        var plainStart = index
        func flushPlain(upTo end: Int) -> Bool {
            guard plainStart < end else { return true }
            guard let text = String(validating: bytes[plainStart..<end], as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            return true
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard flushPlain(upTo: index) else { return nil }
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { return nil }
            if byte != UInt8(ascii: "\\") { index += 1; continue }
            guard flushPlain(upTo: index), index + 1 < bytes.count else { return nil }
            index += 2
            switch bytes[index - 1] {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                guard let unit = hex4() else { return nil }
                var value = UInt32(unit)
                if (0xD800...0xDBFF).contains(unit) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                    index += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                    value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
            default: return nil
            }
            plainStart = index
        }
        return nil
    }

    private mutating func hex4() -> UInt16? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt16 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        index += 4
        return value
    }

    /// Appends `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0..<0x20: out.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
