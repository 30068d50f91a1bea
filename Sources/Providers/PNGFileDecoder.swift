import CPNG
import SystemKit
import ThumbnailKit

/// PNG thumbnails through libpng, row by row, without opening libvips (and its hundred libraries:
/// a cold worker's first PNG cost it ~60 ms of loading). nil leaves the file to libvips: an
/// interlaced PNG over 16 megapixels (its passes need the whole picture), any over 256, or one
/// libpng gives up on.
enum PNGFileDecoder {
    static func thumbnail(path: String, box: PixelSize, cancellation: CancellationFlag) throws(ThumbnailError) -> PixelImage? {
        guard let reader = CPNG_open(path) else { return nil }
        defer { CPNG_close(reader) }
        let stored = PixelSize(width: Int(reader.pointee.width), height: Int(reader.pointee.height))
        let orientation = reader.pointee.exif.flatMap { exif in
            TIFFReader(Array(UnsafeBufferPointer(start: exif, count: Int(reader.pointee.exifLength))))?.orientation
        } ?? 1
        let interlaced = reader.pointee.interlaced != 0
        // Every pixel is made RGBA: past a quarter of a gigapixel libvips is the faster (a 1-bit
        // 1,000,000×2000 PNG: 12 s here, 4.5 s there).
        if stored.width * stored.height > (interlaced ? 16 << 20 : 256 << 20) { return nil }
        // About 1 MB of rows per call; an interlaced picture in one call.
        let bandRows = interlaced ? stored.height : max(1, (1 << 20) / max(stored.width * 4, 1))
        return try BandedDecode.thumbnail(stored: stored, box: box, orientation: orientation, premultiplied: false, bandRows: bandRows,
                                          cancellation: cancellation) { _, count, into in
            (interlaced ? CPNG_read_image(reader, into) : CPNG_read_rows(reader, into, Int32(count))) == 0
        }
    }
}
