import ThumbnailKit

/// The common path of the decoders that read a picture band by band through its own library
/// (PNG, TIFF): each band shrunk as it arrives (`RowShrinker`), then fitted to the box and turned
/// upright, as libvips' shrink-on-load would, without opening libvips.
enum BandedDecode {
    /// A thumbnail of a picture stored `stored` (before its EXIF `orientation`), fitting `box`;
    /// nil when `read` fails, so that libvips gets the file (and says what is wrong with it).
    /// `read(row, count, into)` fills `count` rows from `row` (stride width*4) and says whether it could.
    static func thumbnail(stored: PixelSize, box: PixelSize, orientation: Int, premultiplied: Bool, bandRows: Int,
                          cancellation: CancellationFlag,
                          read: (_ row: Int, _ count: Int, _ into: UnsafeMutablePointer<UInt8>) -> Bool) throws(ThumbnailError) -> PixelImage? {
        let fitted = ThumbnailGeometry.fit(stored, in: ThumbnailGeometry.storedBox(box, orientation: orientation))
        var shrinker = RowShrinker(source: stored, factor: RowShrinker.factor(from: stored, to: fitted), premultiplied: premultiplied)
        let band = max(1, min(bandRows, stored.height))
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: band * stored.width * 4)
        defer { buffer.deallocate() }
        var row = 0
        while row < stored.height {
            try cancellation.check()
            let count = min(band, stored.height - row)
            guard read(row, count, buffer) else { return nil }
            shrinker.add(rows: buffer, count: count)
            row += count
        }
        return shrinker.image.resized(to: fitted).applyingOrientation(orientation)
    }
}
