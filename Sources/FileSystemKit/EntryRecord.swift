import SystemKit

/// One entry's facts in 24 bytes; its name (and, for non-ASCII names, its folded sort key) live
/// in its chunk's byte buffer.
struct EntryRecord: Sendable, Equatable {
    var size: Int64
    var modified: Int64
    var nameStart: UInt32
    /// Length of the lower-cased sort key stored right after the name; 0 when the name is ASCII
    /// and folds on the fly (most names), so it is not stored twice.
    var keyLength: UInt16
    /// Names are at most 255 bytes on Linux (NAME_MAX).
    var nameLength: UInt8
    /// Three flag bits, and the kind in the upper four bits.
    var bits: UInt8

    var flags: UInt8 { bits & 0x0F }
    var kindCode: UInt8 { bits >> 4 }

    static let directory: UInt8 = 1, symbolicLink: UInt8 = 2, hidden: UInt8 = 4

    static let kinds = ContentKind.allCases
    static func code(of kind: ContentKind) -> UInt8 { UInt8(kinds.firstIndex(of: kind) ?? kinds.count - 1) }
}

extension EntryRecord {
    /// The name, in the byte buffer of the record's chunk.
    @inline(__always)
    func name(in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let start = Int(nameStart)
        return UnsafeBufferPointer(rebasing: bytes[start..<(start + Int(nameLength))])
    }

    /// The name to sort and filter by: the stored lower-cased key, or the ASCII name itself.
    @inline(__always)
    func sortKey(in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard keyLength > 0 else { return name(in: bytes) }
        let start = Int(nameStart) + Int(nameLength)
        return UnsafeBufferPointer(rebasing: bytes[start..<(start + Int(keyLength))])
    }
}
