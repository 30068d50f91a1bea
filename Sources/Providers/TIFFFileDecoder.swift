import CTIFF
import SystemKit
import ThumbnailKit

/// TIFF thumbnails through libtiff's RGBA interface, a strip or a tile's height at a time, without
/// opening libvips. Only single-page grey, RGB, palette and YCbCr pictures of unsigned samples
/// up to 100 megapixels; nil leaves the rest to libvips: CMYK (its ICC profile), floats, pages,
/// pyramids whose smaller levels libvips reads instead, and anything libtiff gives up on.
enum TIFFFileDecoder {
    static let largestPicture = 100 << 20

    static func thumbnail(path: String, box: PixelSize, cancellation: CancellationFlag) throws(ThumbnailError) -> PixelImage? {
        guard let reader = CTIFF_open(path, Int64(largestPicture)) else { return nil }
        defer { CTIFF_close(reader) }
        let stored = PixelSize(width: Int(reader.pointee.width), height: Int(reader.pointee.height))
        return try BandedDecode.thumbnail(stored: stored, box: box, orientation: Int(reader.pointee.orientation),
                                          premultiplied: reader.pointee.premultiplied != 0, bandRows: Int(reader.pointee.bandRows),
                                          cancellation: cancellation) { row, count, into in
            CTIFF_read_rows(reader, Int32(row), Int32(count), into) == 0
        }
    }
}
