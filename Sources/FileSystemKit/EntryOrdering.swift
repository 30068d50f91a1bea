import SystemKit

/// How a folder's entries are ordered; folders always come first.
public enum EntryOrdering: String, Sendable, CaseIterable {
    /// Natural order of names (`page2` before `page10`), case ignored.
    case name
    /// Largest first.
    case size
    /// Newest first.
    case time
    /// By kind, then extension, then name.
    case kind
}

private struct SortItem {
    var prefix: UInt64
    var handle: EntryHandle
    var rank: UInt32
}

extension EntryStore {
    /// Sorts handles, reading names in place (no allocation or reference counting per comparison).
    /// By name, each entry first gets an 8-byte key that orders as the natural order of its name's
    /// start, so most comparisons are one integer compare in a contiguous array, not two trips
    /// through scattered memory.
    public func sort(_ handles: inout [EntryHandle], by ordering: EntryOrdering) {
        guard ordering == .name, handles.count > 64 else {
            withLess(ordering) { less in handles.sort(by: less) }
            return
        }
        var items = handles.map { handle -> SortItem in
            let (chunk, index) = locate(handle)
            let record = chunk.records[index]
            return SortItem(prefix: NaturalOrder.prefixKey(record.sortKey(in: chunk.bytes)), handle: handle,
                            rank: record.flags & EntryRecord.directory != 0 ? 0 : 1)
        }
        withLess(ordering) { less in
            items.sort { a, b in
                if a.rank != b.rank { return a.rank < b.rank }
                if a.prefix != b.prefix { return a.prefix < b.prefix }
                return less(a.handle, b.handle)
            }
        }
        for index in items.indices { handles[index] = items[index].handle }
    }

    /// Merges `incoming` (sorted) into `order` (sorted); returns the merged order and where the
    /// entry at `cursor` went, so the cursor can stay on it while batches arrive.
    public func merge(_ incoming: [EntryHandle], into order: [EntryHandle], by ordering: EntryOrdering, cursor: Int) -> (order: [EntryHandle], cursor: Int) {
        guard !incoming.isEmpty else { return (order, cursor) }
        var merged: [EntryHandle] = []
        merged.reserveCapacity(order.count + incoming.count)
        var newCursor = cursor
        withLess(ordering) { less in
            var i = 0, j = 0
            while i < order.count || j < incoming.count {
                if j < incoming.count && (i == order.count || less(incoming[j], order[i])) {
                    if i <= cursor && i < order.count { newCursor += 1 }
                    merged.append(incoming[j])
                    j += 1
                } else {
                    merged.append(order[i])
                    i += 1
                }
            }
        }
        return (merged, newCursor)
    }

    /// The handles of the chunks in `chunkRange` that are shown: hidden entries only with
    /// `showHidden`, and only names containing `needle` (lower-cased UTF-8; empty matches all).
    public func shownHandles(inChunks chunkRange: Range<Int>, showHidden: Bool, needle: [UInt8]) -> [EntryHandle] {
        var result: [EntryHandle] = []
        result.reserveCapacity(chunkRange.reduce(0) { $0 + chunks[$1].count })
        needle.withUnsafeBufferPointer { needle in
            for chunkIndex in chunkRange {
                let chunk = chunks[chunkIndex]
                for (index, handle) in handles(inChunk: chunkIndex).enumerated() {
                    let record = chunk.records[index]
                    if !showHidden && record.flags & EntryRecord.hidden != 0 { continue }
                    if needle.count > 0 && !Self.contains(chunk.sortKey(of: record), needle) { continue }
                    result.append(handle)
                }
            }
        }
        return result
    }

    /// Where the entry named `name` is in `order`, if it is there.
    public func position(of name: [UInt8], in order: [EntryHandle]) -> Int? {
        order.firstIndex { hasName($0, name) }
    }

    /// How many of `order` are folders (they come first in every ordering).
    public func folderCount(in order: [EntryHandle]) -> Int {
        var low = 0, high = order.count
        while low < high {
            let middle = (low + high) / 2
            if isDirectory(order[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func withLess<R>(_ ordering: EntryOrdering, _ body: ((EntryHandle, EntryHandle) -> Bool) -> R) -> R {
        // Plain pointers per chunk: the chunks stay alive for the call, and their memory never moves.
        let recordLists = chunks.map(\.records), byteLists = chunks.map(\.bytes)
        let mask = EntryHandle(1 << Self.chunkBits - 1), shift = Self.chunkBits
        return withExtendedLifetime(chunks) {
            recordLists.withUnsafeBufferPointer { records in byteLists.withUnsafeBufferPointer { bytes in body { x, y in
                let aChunk = Int(x >> shift), bChunk = Int(y >> shift)
                let a = records[aChunk][Int(x & mask)], b = records[bChunk][Int(y & mask)]
                let aFolder = a.flags & EntryRecord.directory, bFolder = b.flags & EntryRecord.directory
                if aFolder != bFolder { return aFolder != 0 }
                switch ordering {
                case .name: break
                case .size: if a.size != b.size { return a.size > b.size }
                case .time: if a.modified != b.modified { return a.modified > b.modified }
                case .kind:
                    if a.kindCode != b.kindCode { return a.kindCode < b.kindCode }
                    let order = Self.compareExtensions(a.sortKey(in: bytes[aChunk]), b.sortKey(in: bytes[bChunk]))
                    if order != 0 { return order < 0 }
                }
                let order = NaturalOrder.compareFolded(a.sortKey(in: bytes[aChunk]), b.sortKey(in: bytes[bChunk]))
                if order != 0 { return order < 0 }
                return a.name(in: bytes[aChunk]).lexicographicallyPrecedes(b.name(in: bytes[bChunk]))
            } } }
        }
    }

    private static func compareExtensions(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let dot = UInt8(ascii: ".")
        let ea = a.lastIndex(of: dot).map { UnsafeBufferPointer(rebasing: a[$0...]) } ?? UnsafeBufferPointer(start: nil, count: 0)
        let eb = b.lastIndex(of: dot).map { UnsafeBufferPointer(rebasing: b[$0...]) } ?? UnsafeBufferPointer(start: nil, count: 0)
        for (x, y) in zip(ea, eb) where NaturalOrder.folded(x) != NaturalOrder.folded(y) {
            return NaturalOrder.folded(x) < NaturalOrder.folded(y) ? -1 : 1
        }
        return ea.count == eb.count ? 0 : (ea.count < eb.count ? -1 : 1)
    }

    /// Whether `haystack` (folded on the fly) contains `needle` (already lower-case).
    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard needle.count <= haystack.count else { return false }
        var start = 0
        while start + needle.count <= haystack.count {
            var k = 0
            while k < needle.count && NaturalOrder.folded(haystack[start + k]) == needle[k] { k += 1 }
            if k == needle.count { return true }
            start += 1
        }
        return false
    }
}
