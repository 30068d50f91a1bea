import CZlib

/// Reads PNG files: the thumbnail cache's own format, written by qlbrowse and by every other
/// file manager. Non-interlaced PNGs of any colour type and 8 or 16 bits (what the Thumbnail
/// Managing Standard allows) decode to RGBA; anything else is reported as unreadable.
public enum PNGDecoder {
    /// The chunks of interest: the text keys and the header, without inflating the pixels.
    public struct Info: Equatable {
        public var width = 0
        public var height = 0
        public var bitDepth = 0
        public var colorType = 0
        public var interlaced = false
        public var text: [String: String] = [:]
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The header and text of a well-formed PNG, nil for anything else. `checksPixels: false`
    /// skips the CRCs of the picture's data (the chunks are still walked to IEND, so a cut file
    /// is still refused): for a look-up that only asks whether a thumbnail is stored and current
    /// (a re-run of a batch: the CRCs were a sixth of its work); whoever shows the picture
    /// decodes it, and every check is made then.
    public static func info(_ png: [UInt8], checksPixels: Bool = true) -> Info? {
        var info = Info()
        var sawHeader = false
        let complete = forEachChunk(png, checksCRC: { checksPixels || $0 != Chunk.data }) { type, data in
            switch type {
            case Chunk.header:
                guard data.count == 13 else { return false }
                info.width = Int(bigEndian(data, 0)); info.height = Int(bigEndian(data, 4))
                info.bitDepth = Int(data[data.startIndex + 8]); info.colorType = Int(data[data.startIndex + 9])
                info.interlaced = data[data.startIndex + 12] != 0
                sawHeader = true
            case Chunk.text:
                guard let zero = data.firstIndex(of: 0) else { return true }
                let key = String(decoding: data[data.startIndex..<zero], as: UTF8.self)
                // Latin-1, which is ASCII in nearly every thumbnail (URIs are escaped).
                let bytes = data[(zero + 1)...]
                let value = bytes.allSatisfy({ $0 < 0x80 }) ? String(decoding: bytes, as: UTF8.self) : String(bytes.map { Character(Unicode.Scalar($0)) })
                info.text[key] = value
            default:
                break
            }
            return true
        }
        return complete && sawHeader ? info : nil
    }

    public static func decode(_ png: [UInt8]) -> PixelImage? {
        guard let inflated = inflated(png) else { return nil }
        let info = inflated.info
        guard let rows = unfilter(inflated.raw, stride: inflated.stride, height: info.height, bytesPerPixel: inflated.bytesPerPixel) else { return nil }
        // 8-bit RGBA rows are the pixels already.
        if info.colorType == 6 && info.bitDepth == 8 { return PixelImage(width: info.width, height: info.height, pixels: rows) }
        guard let out = rgba(rows, info: info, channels: inflated.channels, palette: inflated.palette, transparency: inflated.transparency) else { return nil }
        return PixelImage(width: info.width, height: info.height, pixels: out)
    }

    /// The header when `decode` would read the file, found without making its pixels: every
    /// check `decode` makes (chunks and their CRCs, the header, the inflated size, each row's
    /// filter; a palette's indexes by decoding), so that a picture checked here can be decoded
    /// later, only if someone looks at it.
    public static func check(_ png: [UInt8]) -> Info? {
        guard let inflated = inflated(png) else { return nil }
        if inflated.info.colorType == 3 { return decode(png) == nil ? nil : inflated.info }
        let stride = inflated.stride
        return inflated.raw.withUnsafeBufferPointer { raw in
            (0..<inflated.info.height).allSatisfy { raw[$0 * (stride + 1)] <= 4 }
        } ? inflated.info : nil
    }

    /// The header, the inflated rows (each behind its filter byte) and what the colour type needs.
    private struct Inflated {
        let info: Info
        let raw: [UInt8]
        let channels: Int
        let bytesPerPixel: Int
        let stride: Int
        let palette: [UInt8]
        let transparency: [UInt8]
    }

    private static func inflated(_ png: [UInt8]) -> Inflated? {
        guard let info = info(png), !info.interlaced, info.width > 0, info.height > 0,
              info.width <= 16384, info.height <= 16384, [8, 16].contains(info.bitDepth) || (info.colorType == 3 && info.bitDepth == 8) else { return nil }
        var compressed: [UInt8] = []
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        _ = forEachChunk(png) { type, data in
            if type == Chunk.data { compressed += data } else if type == Chunk.palette { palette = Array(data) } else if type == Chunk.transparency { transparency = Array(data) }
            return true
        }
        let channels: Int
        switch info.colorType {
        case 0: channels = 1
        case 2: channels = 3
        case 3: channels = 1
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        let bytesPerPixel = channels * info.bitDepth / 8
        let stride = info.width * bytesPerPixel
        guard let raw = inflate(compressed, expected: (stride + 1) * info.height) else { return nil }
        return Inflated(info: info, raw: raw, channels: channels, bytesPerPixel: bytesPerPixel, stride: stride,
                        palette: palette, transparency: transparency)
    }

    /// Chunk types, as their four bytes read big-endian.
    enum Chunk {
        static let header: UInt32 = 0x4948_4452  // IHDR
        static let text: UInt32 = 0x7445_5874  // tEXt
        static let data: UInt32 = 0x4944_4154  // IDAT
        static let palette: UInt32 = 0x504C_5445  // PLTE
        static let transparency: UInt32 = 0x7452_4E53  // tRNS
        static let end: UInt32 = 0x4945_4E44  // IEND
    }

    /// Calls `body` for each chunk with a valid CRC (those `checksCRC` names: all but in `info`'s
    /// look-up); false when the file is not a well-formed PNG.
    private static func forEachChunk(_ png: [UInt8], checksCRC: (UInt32) -> Bool = { _ in true },
                                     _ body: (UInt32, ArraySlice<UInt8>) -> Bool) -> Bool {
        guard png.count >= 8, png[0..<8].elementsEqual(signature) else { return false }
        var position = 8
        while position + 12 <= png.count {
            let length = Int(bigEndian(png[...], position))
            guard length >= 0, position + 12 + length <= png.count else { return false }
            let type = bigEndian(png[...], position + 4)
            if checksCRC(type) {
                let crc = png[(position + 4)..<(position + 8 + length)].withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
                guard UInt32(crc) == bigEndian(png[...], position + 8 + length) else { return false }
            }
            if type == Chunk.end { return true }
            guard body(type, png[(position + 8)..<(position + 8 + length)]) else { return false }
            position += 12 + length
        }
        return false
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
        let base = bytes.startIndex + offset
        return UInt32(bytes[base]) << 24 | UInt32(bytes[base + 1]) << 16 | UInt32(bytes[base + 2]) << 8 | UInt32(bytes[base + 3])
    }

    static func inflate(_ input: [UInt8], expected: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: expected)
        var length = uLongf(expected)
        let status = output.withUnsafeMutableBufferPointer { target in
            input.withUnsafeBufferPointer { source in uncompress(target.baseAddress, &length, source.baseAddress, uLong(source.count)) }
        }
        return status == Z_OK && Int(length) == expected ? output : nil
    }

    /// The rows without their filters (PNG's five predictors, each over the row as a whole).
    private static func unfilter(_ raw: [UInt8], stride: Int, height: Int, bytesPerPixel: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: stride * height)
        let ok = raw.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output -> Bool in
                guard let source = input.baseAddress, let target = output.baseAddress else { return height == 0 || stride == 0 }
                for y in 0..<height {
                    let filter = source[y * (stride + 1)]
                    let line = source + y * (stride + 1) + 1
                    let row = target + y * stride
                    // The row above, or zeros for the first (its own bytes, still zero, stand in).
                    let up = y > 0 ? UnsafePointer(row - stride) : nil
                    switch filter {
                    case 0:
                        row.update(from: line, count: stride)
                    case 1:
                        for x in 0..<stride { row[x] = line[x] &+ (x >= bytesPerPixel ? row[x - bytesPerPixel] : 0) }
                    case 2:
                        if let up { for x in 0..<stride { row[x] = line[x] &+ up[x] } } else { row.update(from: line, count: stride) }
                    case 3:
                        for x in 0..<stride {
                            let left = x >= bytesPerPixel ? Int(row[x - bytesPerPixel]) : 0
                            let above = up.map { Int($0[x]) } ?? 0
                            row[x] = line[x] &+ UInt8(truncatingIfNeeded: (left + above) >> 1)
                        }
                    case 4:
                        for x in 0..<stride {
                            let left = x >= bytesPerPixel ? Int(row[x - bytesPerPixel]) : 0
                            let above = up.map { Int($0[x]) } ?? 0
                            let upLeft = x >= bytesPerPixel ? (up.map { Int($0[x - bytesPerPixel]) } ?? 0) : 0
                            let p = left + above - upLeft
                            let pa = abs(p - left), pb = abs(p - above), pc = abs(p - upLeft)
                            row[x] = line[x] &+ UInt8(truncatingIfNeeded: pa <= pb && pa <= pc ? left : (pb <= pc ? above : upLeft))
                        }
                    default:
                        return false
                    }
                }
                return true
            }
        }
        return ok ? out : nil
    }

    /// Unfiltered rows as RGBA, one loop per colour type; nil for a palette index past the palette.
    private static func rgba(_ rows: [UInt8], info: Info, channels: Int, palette: [UInt8], transparency: [UInt8]) -> [UInt8]? {
        let count = info.width * info.height
        var out = [UInt8](repeating: 255, count: count * 4)
        // A 16-bit sample's high byte comes first: it is the one kept.
        let step = info.bitDepth == 16 ? 2 : 1
        let ok = rows.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output -> Bool in
                guard let source = input.baseAddress, let target = output.baseAddress else { return count == 0 }
                let pixel = channels * step
                switch info.colorType {
                case 0:
                    for index in 0..<count {
                        let gray = source[index * pixel]
                        target[index * 4] = gray; target[index * 4 + 1] = gray; target[index * 4 + 2] = gray
                    }
                case 2:
                    for index in 0..<count {
                        let from = index * pixel
                        target[index * 4] = source[from]; target[index * 4 + 1] = source[from + step]; target[index * 4 + 2] = source[from + 2 * step]
                    }
                case 3:
                    for index in 0..<count {
                        let entry = Int(source[index])
                        guard entry * 3 + 2 < palette.count else { return false }
                        target[index * 4] = palette[entry * 3]; target[index * 4 + 1] = palette[entry * 3 + 1]; target[index * 4 + 2] = palette[entry * 3 + 2]
                        target[index * 4 + 3] = entry < transparency.count ? transparency[entry] : 255
                    }
                case 4:
                    for index in 0..<count {
                        let from = index * pixel, gray = source[from]
                        target[index * 4] = gray; target[index * 4 + 1] = gray; target[index * 4 + 2] = gray; target[index * 4 + 3] = source[from + step]
                    }
                default:
                    for index in 0..<count {
                        let from = index * pixel
                        target[index * 4] = source[from]; target[index * 4 + 1] = source[from + step]
                        target[index * 4 + 2] = source[from + 2 * step]; target[index * 4 + 3] = source[from + 3 * step]
                    }
                }
                return true
            }
        }
        return ok ? out : nil
    }
}
