import SystemKit
/// A byte-bounded least-recently-used store of decoded thumbnails, in front of the disk cache.
struct MemoryLRU {
    struct Entry {
        let image: PixelImage
        let stamp: FileStamp
        let source: String
        let contentType: ContentType?
        /// The decoder's facts stored with the picture; nil when it was made without them.
        var facts: [FileFact]? = nil
    }

    private let capacityBytes: Int
    private var entries: [String: (entry: Entry, tick: UInt64)] = [:]
    private var usedBytes = 0
    private var tick: UInt64 = 0

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    /// The entry when it is still valid for the file's current stamp.
    mutating func entry(for key: String, stamp: FileStamp) -> Entry? {
        guard let found = entries[key] else { return nil }
        guard found.entry.stamp == stamp else {
            remove(key)
            return nil
        }
        tick += 1
        entries[key] = (found.entry, tick)
        return found.entry
    }

    mutating func insert(key: String, entry: Entry) {
        remove(key)
        let bytes = entry.image.pixels.count
        guard bytes <= capacityBytes else { return }
        while usedBytes + bytes > capacityBytes, let oldest = entries.min(by: { $0.value.tick < $1.value.tick })?.key {
            remove(oldest)
        }
        tick += 1
        entries[key] = (entry, tick)
        usedBytes += bytes
    }

    private mutating func remove(_ key: String) {
        if let old = entries.removeValue(forKey: key) { usedBytes -= old.entry.image.pixels.count }
    }

    var count: Int { entries.count }
}
