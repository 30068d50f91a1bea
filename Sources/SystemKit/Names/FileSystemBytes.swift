#if canImport(Glibc)
import Glibc
#endif

/// File names on Linux are bytes, not text: a name written on Windows or in Latin-1 (`caf\xE9`)
/// is not UTF-8. qlbrowse carries every name and path as a `String`, so that one name is one value
/// through the listing, the state, the worker and service protocols, the journal and the
/// messages; this is the one lossless mapping between those bytes and that string (OPTU-8, as
/// MirBSD spells it): each byte that is not part of valid UTF-8 becomes the private-use scalar
/// U+EF00 + byte (U+EF80…U+EFFF), and so do the bytes of a name that really contains one of those
/// scalars, so the mapping is a bijection and `bytes(of: string(from: b)) == b` for every `b`.
///
/// Whatever acts on a file takes the bytes (`withFileSystemRepresentation`), never the string's
/// own UTF-8; whatever draws a name escapes the reserved scalars as `\xNN` (`TerminalText`).
public enum FileSystemBytes {
    /// The first of the 128 scalars that stand for the bytes 0x80…0xFF.
    static let firstReserved: UInt32 = 0xEF80
    static let lastReserved: UInt32 = 0xEFFF

    /// The string that stands for `bytes` (a name or a path as the kernel gives it).
    public static func string<Bytes: Collection<UInt8>>(from bytes: Bytes) -> String { make(from: bytes) }

    // The containers names come in, each its own function: from another module the generic one
    // runs unspecialized, every byte through a protocol witness (a 22-line mount table took
    // 1.3 M instructions to read).

    /// The string that stands for `bytes`.
    public static func string(from bytes: [UInt8]) -> String { make(from: bytes) }

    /// The string that stands for `bytes`.
    public static func string(from bytes: ArraySlice<UInt8>) -> String { make(from: bytes) }

    /// The string that stands for `bytes`.
    public static func string(from bytes: UnsafeBufferPointer<UInt8>) -> String { make(from: bytes) }

    private static func make<Bytes: Collection<UInt8>>(from bytes: Bytes) -> String {
        if isPlain(bytes) { return String(decoding: bytes, as: UTF8.self) }
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let first = bytes[index]
            if first < 0x80 {
                scalars.append(Unicode.Scalar(first))
                index += 1
            } else if let (scalar, length) = validScalar(in: bytes, at: index) {
                if isReserved(scalar.value) {
                    // A reserved scalar really in the name: its bytes, one by one, so it comes back.
                    for byte in bytes[index..<(index + length)] { scalars.append(escape(byte)) }
                } else {
                    scalars.append(scalar)
                }
                index += length
            } else {
                scalars.append(escape(first))
                index += 1
            }
        }
        return String(scalars)
    }

    /// The string for a NUL-terminated name or path from C (`readdir`, `realpath`, `argv`).
    public static func string(fromCString pointer: UnsafePointer<CChar>) -> String {
        let length = strlen(pointer)
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            string(from: UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The bytes `text` stands for: the reserved scalars turned back into their bytes, every
    /// other scalar as UTF-8.
    public static func bytes(of text: String) -> [UInt8] {
        if !mayHoldReserved(text) { return Array(text.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isReserved(scalar.value) {
                out.append(UInt8(scalar.value - 0xEF00))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// JSON text for other programs with each raw byte of a name as the lone surrogate
    /// `\uDCxx` (Python's surrogateescape: `os.fsencode(json.loads(line)["file"])` gives the
    /// name's bytes back), never as the private-use scalar that carries it here.
    public static func jsonForOtherPrograms(_ json: String) -> String {
        guard mayHoldReserved(json) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            if isReserved(scalar.value) {
                out += "\\uDC" + String(scalar.value - 0xEF00, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `name` cut to at most `limit` bytes, between characters (for names made from a name, such
    /// as a temporary's or a trashed file's, which must stay within the 255 bytes of a name).
    public static func prefix(of name: String, bytes limit: Int) -> String {
        if bytes(of: name).count <= limit { return name }
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in name.unicodeScalars {
            let size = isReserved(scalar.value) ? 1 : String(scalar).utf8.count
            if count + size > limit { break }
            kept.append(scalar)
            count += size
        }
        return String(kept)
    }

    /// Whether `text` holds bytes that are not UTF-8 (and so is drawn with escapes).
    public static func holdsRawBytes(_ text: String) -> Bool {
        mayHoldReserved(text) && text.unicodeScalars.contains { isReserved($0.value) }
    }

    /// Whether `scalar` stands for a raw byte; `byte(for:)` gives it.
    public static func isReserved(_ value: UInt32) -> Bool { value >= firstReserved && value <= lastReserved }

    /// The raw byte a reserved scalar stands for.
    public static func byte(for scalar: Unicode.Scalar) -> UInt8? {
        isReserved(scalar.value) ? UInt8(scalar.value - 0xEF00) : nil
    }

    /// The reserved scalar that stands for a byte ≥ 0x80.
    public static func escape(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(0xEF00 + UInt32(byte))!
    }

    /// Valid UTF-8 with no reserved scalar in it (U+EF80…U+EFFF are EE BE xx and EE BF xx).
    private static func isPlain<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var previousWasEE = false
        var sawHigh = false
        for byte in bytes {
            if byte >= 0x80 { sawHigh = true }
            if previousWasEE && (byte == 0xBE || byte == 0xBF) { return false }
            previousWasEE = byte == 0xEE
        }
        if !sawHigh { return true }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    private static func mayHoldReserved(_ text: String) -> Bool {
        var previousWasEE = false
        for byte in text.utf8 {
            if previousWasEE && (byte == 0xBE || byte == 0xBF) { return true }
            previousWasEE = byte == 0xEE
        }
        return false
    }

    /// The scalar at `index` and its length, when it is valid, shortest-form UTF-8.
    private static func validScalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let first = bytes[index]
        let length = first >> 5 == 0b110 ? 2 : first >> 4 == 0b1110 ? 3 : first >> 3 == 0b11110 ? 4 : 0
        guard length > 0, index + length <= bytes.count else { return nil }
        var iterator = bytes[index..<(index + length)].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return (scalar, length) }
        return nil
    }
}
