import FileSystemKit
import SystemKit

/// A listing batch as it crosses the link: per entry one flags byte (folder, link), the kind's
/// index in `ContentKind.allCases`, size and mtime as 64-bit little-endian numbers, the name's
/// length in one byte and the name's own bytes. About 20 bytes of overhead an entry, no JSON.
package enum RemoteListing {
    /// The packed bytes of every entry of `store`, in order.
    package static func pack(_ store: EntryStore) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(store.count * 40)
        let kinds = ContentKind.allCases
        for handle in store.handles {
            let entry = store.entry(handle)
            out.append((entry.isDirectory ? 1 : 0) | (entry.isSymbolicLink ? 2 : 0))
            out.append(UInt8(kinds.firstIndex(of: entry.kind) ?? kinds.count - 1))
            append(UInt64(bitPattern: Int64(entry.size)), to: &out)
            append(UInt64(bitPattern: Int64(entry.modified)), to: &out)
            let name = entry.nameBytes.prefix(255)
            out.append(UInt8(name.count))
            out.append(contentsOf: name)
        }
        return out
    }

    /// The entries packed in `bytes`; nil when they are cut short or malformed.
    package static func unpack(_ bytes: [UInt8]) -> EntryStore? {
        var batch = EntryBatch()
        let kinds = ContentKind.allCases
        var index = 0
        while index < bytes.count {
            guard index + 19 <= bytes.count else { return nil }
            let flags = bytes[index], kindIndex = Int(bytes[index + 1])
            let size = Int64(bitPattern: number(bytes, at: index + 2)), modified = Int64(bitPattern: number(bytes, at: index + 10))
            let length = Int(bytes[index + 18])
            let start = index + 19
            guard start + length <= bytes.count, kindIndex < kinds.count, length > 0 else { return nil }
            bytes[start..<(start + length)].withUnsafeBufferPointer { name in
                batch.append(name: name, isDirectory: flags & 1 != 0, isSymbolicLink: flags & 2 != 0,
                             size: Int(size), modified: Int(modified), kind: kinds[kindIndex])
            }
            index = start + length
        }
        return EntryStore(batch)
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func number(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << UInt64($1 * 8) }
    }
}
