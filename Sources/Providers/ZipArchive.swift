import CZlib
import ThumbnailKit

/// A read-only ZIP reader for the containers that carry their own thumbnail (OpenDocument, EPUB,
/// CBZ, 3MF, Krita, OpenRaster, Office Open XML).
///
/// Reads the central directory and inflates single entries, with hard limits: an entry larger than
/// `maximumEntrySize` (declared or actual) is refused, so a zip bomb costs nothing.
public final class ZipArchive {
    public struct Entry: Equatable {
        public let name: String
        let method: Int
        let compressedSize: Int
        public let uncompressedSize: Int
        let localHeaderOffset: Int
    }

    public static let maximumEntrySize = 64 << 20
    public let entries: [Entry]
    private let file: FileBytes

    public init(path: String) throws(ThumbnailError) {
        file = try FileBytes(path: path)
        entries = try Self.readCentralDirectory(file)
    }

    public func entry(named name: String) -> Entry? { entries.first { $0.name == name } }

    /// The entry's bytes, inflated.
    public func contents(of entry: Entry) throws(ThumbnailError) -> [UInt8] {
        guard entry.uncompressedSize <= Self.maximumEntrySize else {
            throw ThumbnailError(.tooLarge, "\(entry.name) inflates to \(entry.uncompressedSize) bytes, more than qlbrowse reads")
        }
        let local = file.read(at: entry.localHeaderOffset, count: 30)
        guard local.count == 30, readUInt32(local, 0) == 0x04034b50 else { throw ThumbnailError(.corrupt, "damaged zip entry \(entry.name)") }
        let dataStart = entry.localHeaderOffset + 30 + readUInt16(local, 26) + readUInt16(local, 28)
        let compressed = file.read(at: dataStart, count: entry.compressedSize)
        guard compressed.count == entry.compressedSize else { throw ThumbnailError(.corrupt, "truncated zip entry \(entry.name)") }
        switch entry.method {
        case 0: return compressed
        case 8: return try inflate(compressed, expected: entry.uncompressedSize, name: entry.name)
        default: throw ThumbnailError(.unsupported, "zip entry \(entry.name) uses compression method \(entry.method)")
        }
    }

    private func inflate(_ input: [UInt8], expected: Int, name: String) throws(ThumbnailError) -> [UInt8] {
        var stream = z_stream()
        guard CZlib_inflate_init_raw(&stream) == Z_OK else { throw ThumbnailError(.corrupt, "cannot inflate \(name)") }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: max(expected, 1))
        var produced = 0
        var input = input
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            output.withUnsafeMutableBufferPointer { target in
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                status = CZlib.inflate(&stream, Z_FINISH)
                produced = target.count - Int(stream.avail_out)
            }
        }
        // More output than declared means the header lies: treat as damaged rather than grow.
        guard status == Z_STREAM_END, produced == expected else { throw ThumbnailError(.corrupt, "damaged compressed data in \(name)") }
        return output
    }

    private static func readCentralDirectory(_ file: FileBytes) throws(ThumbnailError) -> [Entry] {
        let tailLength = min(file.size, 65_557)
        let tail = file.read(at: file.size - tailLength, count: tailLength)
        guard tail.count >= 22 else { throw ThumbnailError(.corrupt, "not a zip archive (too short)") }
        var end = -1
        var index = tail.count - 22
        while index >= 0 {
            if tail[index] == 0x50 && tail[index + 1] == 0x4b && tail[index + 2] == 0x05 && tail[index + 3] == 0x06 { end = index; break }
            index -= 1
        }
        guard end >= 0 else { throw ThumbnailError(.corrupt, "not a zip archive (no end of central directory)") }
        let count = readUInt16(tail, end + 10)
        let size = readUInt32(tail, end + 12), offset = readUInt32(tail, end + 16)
        guard count > 0 else { throw ThumbnailError(.noPreview, "the archive is empty") }
        guard offset + size <= file.size, size <= 64 << 20 else { throw ThumbnailError(.corrupt, "damaged zip directory") }
        let directory = file.read(at: offset, count: size)
        var entries: [Entry] = []
        var position = 0
        while entries.count < count && entries.count < 100_000 && position + 46 <= directory.count {
            guard readUInt32(directory, position) == 0x02014b50 else { break }
            let nameLength = readUInt16(directory, position + 28)
            let extraLength = readUInt16(directory, position + 30), commentLength = readUInt16(directory, position + 32)
            guard position + 46 + nameLength <= directory.count else { break }
            let name = String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
            entries.append(Entry(name: name, method: readUInt16(directory, position + 10),
                                 compressedSize: readUInt32(directory, position + 20), uncompressedSize: readUInt32(directory, position + 24),
                                 localHeaderOffset: readUInt32(directory, position + 42)))
            position += 46 + nameLength + extraLength + commentLength
        }
        guard !entries.isEmpty else { throw ThumbnailError(.corrupt, "damaged zip directory") }
        return entries
    }
}

private func readUInt16(_ bytes: [UInt8], _ offset: Int) -> Int {
    guard offset + 2 <= bytes.count else { return 0 }
    return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
}

private func readUInt32(_ bytes: [UInt8], _ offset: Int) -> Int {
    guard offset + 4 <= bytes.count else { return 0 }
    return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
}
