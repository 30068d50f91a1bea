import SystemKit

/// Entries being collected (by a listing) before they become one chunk of an `EntryStore`.
public struct EntryBatch: Sendable {
    var records: [EntryRecord] = []
    var bytes: [UInt8] = []

    public init(expectedEntries: Int = 0) {
        records.reserveCapacity(expectedEntries)
        bytes.reserveCapacity(expectedEntries * 16)
    }

    public var count: Int { records.count }
    public var isEmpty: Bool { records.isEmpty }

    public mutating func append(name: UnsafeBufferPointer<UInt8>, isDirectory: Bool, isSymbolicLink: Bool, size: Int, modified: Int, kind: ContentKind) {
        let start = bytes.count
        bytes.append(contentsOf: name)
        var keyLength = 0
        if name.contains(where: { $0 >= 0x80 }) {
            let key = NaturalOrder.key(String(fileSystemBytes: name))
            bytes.append(contentsOf: key)
            keyLength = key.count
        }
        var flags: UInt8 = 0
        if isDirectory { flags |= EntryRecord.directory }
        if isSymbolicLink { flags |= EntryRecord.symbolicLink }
        if name.first == UInt8(ascii: ".") { flags |= EntryRecord.hidden }
        records.append(EntryRecord(size: Int64(size), modified: Int64(modified), nameStart: UInt32(start), keyLength: UInt16(min(keyLength, Int(UInt16.max))),
                                   nameLength: UInt8(min(name.count, 255)), bits: flags | EntryRecord.code(of: kind) << 4))
    }

    /// Copies a record from another chunk, with its name and key.
    mutating func append(_ record: EntryRecord, name: UnsafeBufferPointer<UInt8>, key: UnsafeBufferPointer<UInt8>) {
        var copy = record
        copy.nameStart = UInt32(bytes.count)
        bytes.append(contentsOf: name)
        if record.keyLength > 0 { bytes.append(contentsOf: key) }
        records.append(copy)
    }
}

/// A sealed batch: exactly-sized, immutable storage that stores share instead of copying. The
/// memory is its own (allocated once, freed with the chunk), so readers may hold plain pointers
/// into it for as long as they hold the chunk.
final class EntryChunk: @unchecked Sendable, Equatable {
    let records: UnsafeBufferPointer<EntryRecord>
    let bytes: UnsafeBufferPointer<UInt8>

    init(_ batch: EntryBatch) {
        records = Self.exactCopy(batch.records)
        bytes = Self.exactCopy(batch.bytes)
    }

    deinit {
        records.deallocate()
        bytes.deallocate()
    }

    private static func exactCopy<Element>(_ array: [Element]) -> UnsafeBufferPointer<Element> {
        let storage = UnsafeMutableBufferPointer<Element>.allocate(capacity: array.count)
        _ = array.withUnsafeBufferPointer { storage.initialize(from: $0) }
        return UnsafeBufferPointer(storage)
    }

    var count: Int { records.count }

    func name(of record: EntryRecord) -> UnsafeBufferPointer<UInt8> { record.name(in: bytes) }
    func sortKey(of record: EntryRecord) -> UnsafeBufferPointer<UInt8> { record.sortKey(in: bytes) }

    static func == (a: EntryChunk, b: EntryChunk) -> Bool { a.records.elementsEqual(b.records) && a.bytes.elementsEqual(b.bytes) }
}
