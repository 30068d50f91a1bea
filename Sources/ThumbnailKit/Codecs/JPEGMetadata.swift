/// What a JPEG's header segments say without decoding a pixel: the EXIF orientation, the EXIF
/// IFD1 thumbnail, and the MPF preview images phones and cameras embed.
///
/// Pure parsing of untrusted bytes: every offset is checked, every loop is bounded.
public struct JPEGMetadata: Equatable {
    /// EXIF orientation 1…8 (1 when absent).
    public var orientation = 1
    /// Byte range of the EXIF IFD1 thumbnail (a small JPEG) within the file.
    public var exifThumbnail: Range<Int>?
    /// Byte ranges of MPF images other than the primary one, in file order.
    public var mpfPreviews: [Range<Int>] = []
    /// The image's width and height as stored (before the orientation), from its frame header.
    public var storedSize: PixelSize?

    public init() {}

    /// Parses the segments before the first scan. `header` holds the file's first bytes
    /// (128 KiB is enough: APP segments are at most 64 KiB each); `fileSize` bounds the ranges.
    public static func parse(header: [UInt8], fileSize: Int) -> JPEGMetadata? {
        guard header.count >= 4, header[0] == 0xFF, header[1] == 0xD8 else { return nil }
        var result = JPEGMetadata()
        var position = 2
        var segments = 0
        while position + 4 <= header.count && segments < 64 {
            segments += 1
            guard header[position] == 0xFF else { break }
            let marker = header[position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { position += 2; continue }
            if marker == 0xDA || marker == 0xD9 { break }  // start of scan / end of image
            let length = Int(header[position + 2]) << 8 | Int(header[position + 3])
            guard length >= 2 else { break }
            let start = position + 4, end = min(position + 2 + length, header.count)
            // SOF0…SOF15 (not DHT C4, JPG C8, DAC CC): precision, height, width.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), end - start >= 5, result.storedSize == nil {
                let height = Int(header[start + 1]) << 8 | Int(header[start + 2]), width = Int(header[start + 3]) << 8 | Int(header[start + 4])
                if width > 0, height > 0 { result.storedSize = PixelSize(width: width, height: height) }
            }
            if marker == 0xE1, end - start > 6, Array(header[start..<start + 6]) == Array("Exif\0\0".utf8) {
                result.readExif(Array(header[(start + 6)..<end]), tiffOffsetInFile: start + 6, fileSize: fileSize)
            } else if marker == 0xE2, end - start > 4, Array(header[start..<start + 4]) == Array("MPF\0".utf8) {
                result.readMPF(Array(header[(start + 4)..<end]), tiffOffsetInFile: start + 4, fileSize: fileSize)
            }
            position += 2 + length
        }
        return result
    }

    private mutating func readExif(_ tiff: [UInt8], tiffOffsetInFile: Int, fileSize: Int) {
        guard let reader = TIFFReader(tiff), let ifd0 = reader.firstIFDOffset else { return }
        orientation = reader.orientation ?? 1
        guard let ifd1 = reader.nextIFDOffset(after: ifd0), ifd1 != ifd0 else { return }
        let entries1 = reader.entries(at: ifd1)
        guard let offset = entries1.first(where: { $0.tag == 0x0201 })?.value,
              let length = entries1.first(where: { $0.tag == 0x0202 })?.value,
              length > 0, offset > 0, offset + length <= tiff.count else { return }
        let start = tiffOffsetInFile + offset
        guard start + length <= fileSize else { return }
        exifThumbnail = start..<(start + length)
    }

    private mutating func readMPF(_ tiff: [UInt8], tiffOffsetInFile: Int, fileSize: Int) {
        guard let reader = TIFFReader(tiff), let ifd = reader.firstIFDOffset else { return }
        guard let entry = reader.entries(at: ifd).first(where: { $0.tag == 0xB002 }),
              entry.count % 16 == 0, entry.count > 0 else { return }
        let base = entry.value
        guard base >= 0, base + entry.count <= tiff.count else { return }
        for index in 0..<min(entry.count / 16, 16) {
            let record = base + index * 16
            let size = reader.uint32(at: record + 4)
            let offset = reader.uint32(at: record + 8)
            guard index > 0, size > 0, offset > 0 else { continue }  // the primary image has offset 0
            let start = tiffOffsetInFile + offset
            if start + size <= fileSize { mpfPreviews.append(start..<(start + size)) }
        }
    }
}

/// Reads TIFF structures (EXIF and MPF are both TIFF-shaped) from a byte array, either byte order.
package struct TIFFReader {
    package struct Entry {
        package let tag: Int
        package let type: Int
        package let count: Int
        /// The value for SHORT/LONG counts of one, else the offset of the values.
        package let value: Int
    }

    package let bytes: [UInt8]
    package let bigEndian: Bool

    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        if bytes[0] == 0x4D && bytes[1] == 0x4D { bigEndian = true } else if bytes[0] == 0x49 && bytes[1] == 0x49 { bigEndian = false } else { return nil }
        self.bytes = bytes
        guard uint16(at: 2) == 42 else { return nil }
    }

    package var firstIFDOffset: Int? {
        let offset = uint32(at: 4)
        return offset >= 8 && offset < bytes.count ? offset : nil
    }

    /// The EXIF orientation (1…8) the first directory gives, nil when it gives none that is valid.
    package var orientation: Int? {
        guard let ifd0 = firstIFDOffset, let value = entries(at: ifd0).first(where: { $0.tag == 0x0112 })?.value,
              (1...8).contains(value) else { return nil }
        return value
    }

    package func uint16(at offset: Int) -> Int {
        guard offset >= 0, offset + 2 <= bytes.count else { return 0 }
        let a = Int(bytes[offset]), b = Int(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    package func uint32(at offset: Int) -> Int {
        guard offset >= 0, offset + 4 <= bytes.count else { return 0 }
        let b = (0..<4).map { Int(bytes[offset + $0]) }
        return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
    }

    package func entries(at offset: Int) -> [Entry] {
        let count = uint16(at: offset)
        guard count > 0, count < 1000, offset + 2 + count * 12 <= bytes.count else { return [] }
        return (0..<count).map { index in
            let base = offset + 2 + index * 12
            let type = uint16(at: base + 2)
            let valueCount = uint32(at: base + 4)
            let value = (type == 3 && valueCount == 1) ? uint16(at: base + 8) : uint32(at: base + 8)
            return Entry(tag: uint16(at: base), type: type, count: valueCount, value: value)
        }
    }

    package func nextIFDOffset(after offset: Int) -> Int? {
        let count = uint16(at: offset)
        let next = uint32(at: offset + 2 + count * 12)
        return next >= 8 && next < bytes.count ? next : nil
    }
}
