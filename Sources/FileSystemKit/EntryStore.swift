import SystemKit

/// Identifies an entry in an `EntryStore`: its chunk in the upper 12 bits, its place in the
/// chunk in the lower 20. Four bytes, so the sorted order of 100,000 entries costs 400 KB.
public typealias EntryHandle = UInt32

/// A folder's entries, packed so that huge folders stay small and quick: each listing batch is
/// one chunk holding every name in one byte buffer and a fixed 24-byte record per entry, sized
/// exactly. Chunks are shared, never copied or grown, so 100,000 entries cost about 4 MB with
/// no allocation per entry and no growth slack; sorting and filtering read the bytes in place.
public struct EntryStore: Sendable, Equatable {
    static let chunkBits: UInt32 = 20
    /// The most entries a chunk may hold (1,048,576).
    public static let chunkCapacity = 1 << Int(chunkBits)
    public static let maximumChunks = 1 << (32 - Int(chunkBits))

    private(set) var chunks: [EntryChunk] = []
    public private(set) var count = 0

    public init() {}

    /// A store holding `entries`, in order (for tests and small callers).
    public init(_ entries: [Entry]) {
        var batch = EntryBatch()
        for entry in entries {
            entry.nameBytes.withUnsafeBufferPointer {
                batch.append(name: $0, isDirectory: entry.isDirectory, isSymbolicLink: entry.isSymbolicLink, size: entry.size, modified: entry.modified, kind: entry.kind)
            }
        }
        self.init(batch)
    }

    /// A store holding one batch.
    public init(_ batch: EntryBatch) {
        if !batch.isEmpty {
            chunks = [EntryChunk(batch)]
            count = batch.count
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// Adds every entry of `other` after this store's, sharing its chunks. Returns true when the
    /// store had to be repacked to make room, which changes every handle given out before.
    @discardableResult
    public mutating func append(contentsOf other: EntryStore) -> Bool {
        chunks += other.chunks
        count += other.count
        guard chunks.count > Self.maximumChunks else { return false }
        repack()
        return true
    }

    /// The handles of chunk `index`'s entries, in listing order.
    public func handles(inChunk index: Int) -> Range<EntryHandle> {
        let base = EntryHandle(index) << Self.chunkBits
        return base..<(base + EntryHandle(chunks[index].count))
    }

    public var chunkCount: Int { chunks.count }

    /// Every handle, in listing order.
    public var handles: [EntryHandle] { chunks.indices.flatMap { Array(handles(inChunk: $0)) } }

    public func entry(_ handle: EntryHandle) -> Entry {
        let (chunk, index) = locate(handle)
        let record = chunk.records[index]
        return Entry(nameBytes: Array(chunk.name(of: record)), isDirectory: record.flags & EntryRecord.directory != 0,
                     isSymbolicLink: record.flags & EntryRecord.symbolicLink != 0, size: Int(record.size), modified: Int(record.modified),
                     kind: EntryRecord.kinds[Int(record.kindCode)])
    }

    public func isDirectory(_ handle: EntryHandle) -> Bool {
        let (chunk, index) = locate(handle)
        return chunk.records[index].flags & EntryRecord.directory != 0
    }

    /// The names of the pictures and videos in `chunks` (the halves a Live Photo can have).
    public func pictureAndVideoNames(inChunks chunks: Range<Int>) -> [[UInt8]] {
        var names: [[UInt8]] = []
        for index in chunks {
            let chunk = self.chunks[index]
            for record in chunk.records {
                let kind = EntryRecord.kinds[Int(record.kindCode)]
                if kind == .image || kind == .video { names.append(Array(chunk.name(of: record))) }
            }
        }
        return names
    }

    /// The entry's name.
    public func name(_ handle: EntryHandle) -> [UInt8] {
        let (chunk, index) = locate(handle)
        return Array(chunk.name(of: chunk.records[index]))
    }

    /// Whether the entry's name is exactly `name`.
    public func hasName(_ handle: EntryHandle, _ name: [UInt8]) -> Bool {
        let (chunk, index) = locate(handle)
        return chunk.name(of: chunk.records[index]).elementsEqual(name)
    }

    func locate(_ handle: EntryHandle) -> (EntryChunk, Int) {
        (chunks[Int(handle >> Self.chunkBits)], Int(handle & (1 << Self.chunkBits - 1)))
    }

    /// Packs all entries into as few chunks as possible (only after 4,096 appends).
    private mutating func repack() {
        var packed: [EntryChunk] = []
        var batch = EntryBatch()
        for chunk in chunks {
            for record in chunk.records {
                if batch.count == Self.chunkCapacity {
                    packed.append(EntryChunk(batch))
                    batch = EntryBatch()
                }
                batch.append(record, name: chunk.name(of: record), key: chunk.sortKey(of: record))
            }
        }
        if !batch.isEmpty { packed.append(EntryChunk(batch)) }
        chunks = packed
    }

    public static func == (a: EntryStore, b: EntryStore) -> Bool {
        a.count == b.count && a.chunks.count == b.chunks.count && zip(a.chunks, b.chunks).allSatisfy { $0 === $1 || $0 == $1 }
    }
}
