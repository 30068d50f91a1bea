import SystemKit

/// A JPEG's own small preview (its EXIF IFD1 thumbnail, else its first MPF preview) taken as its
/// thumbnail when it can stand for one: tumbler's way of answering a desktop's folder of photos
/// at once, without decoding the photos.
///
/// Small enough to run in the asking process (`qlbrowse dbus` answers a first screen of photos so,
/// without waiting for a worker, as tumbler does): the file's first 128 KiB are parsed by
/// `JPEGMetadata` (bounded, every offset checked), and a baseline preview of at most `maximumBytes`
/// and `maximumSide` pixels is decoded by libjpeg-turbo from memory with DCT scaling.
package enum EmbeddedThumbnail {
    /// The largest preview taken (an MPF preview of a phone photo is ~200–400 KB, 1920 pixels wide).
    package static let maximumBytes = 1 << 20
    package static let maximumSide = 4096

    /// The preview of the JPEG at `path` fitted to `box` with the photo's orientation applied, and
    /// where it came from ("exif" or "mpf"); nil when the file is no JPEG, has no preview, or none
    /// `fills` the box (then the photo itself must be decoded).
    package static func image(path: String, box: PixelSize) -> (image: PixelImage, source: String)? {
        guard let file = try? FileBytes(path: path),
              let metadata = JPEGMetadata.parse(header: file.read(at: 0, count: 128 * 1024), fileSize: file.size) else { return nil }
        return image(file: file, metadata: metadata, box: box)
    }

    /// The same from a file whose header is parsed already.
    package static func image(file: FileBytes, metadata: JPEGMetadata, box: PixelSize,
                              cancel: UnsafeMutablePointer<Int32>? = nil) -> (image: PixelImage, source: String)? {
        guard let stored = metadata.storedSize else { return nil }
        for (range, source) in candidates(metadata) where range.count <= maximumBytes {
            let bytes = file.read(at: range.lowerBound, count: range.count)
            guard bytes.count == range.count, let header = JPEGMetadata.parse(header: Array(bytes.prefix(128 * 1024)), fileSize: bytes.count),
                  let preview = header.storedSize, max(preview.width, preview.height) <= maximumSide,
                  fills(box, preview: preview, image: stored, orientation: metadata.orientation) else { continue }
            // EXIF thumbnails carry no orientation of their own: the photo's applies. MPF previews have their own EXIF.
            let orientation = source == "exif" ? metadata.orientation : header.orientation
            if case .image(let image)? = try? JPEGDecoder.thumbnail(bytes: bytes, box: box, orientation: orientation, cancel: cancel) {
                return (image, source)
            }
        }
        return nil
    }

    /// The previews a JPEG carries, cheapest first: the EXIF thumbnail, then the first MPF preview.
    package static func candidates(_ metadata: JPEGMetadata) -> [(Range<Int>, String)] {
        [metadata.exifThumbnail.map { ($0, "exif") }].compactMap { $0 } + metadata.mpfPreviews.prefix(1).map { ($0, "mpf") }
    }

    /// Whether a preview stored at `preview` pixels can stand for the thumbnail of an image stored at
    /// `image` pixels in `box`: the same picture (aspect ratios within 1 %: no bars a camera added),
    /// and at least as many pixels as the image fitted to the box (never enlarged). Both sizes are
    /// as stored, before the orientation, so the box is turned with it.
    package static func fills(_ box: PixelSize, preview: PixelSize, image: PixelSize, orientation: Int = 1) -> Bool {
        let turned = ThumbnailGeometry.storedBox(box, orientation: orientation)
        let sameShape = abs(preview.width * image.height - preview.height * image.width) * 100 <= image.width * preview.height
        let scale = min(Double(turned.width) / Double(image.width), Double(turned.height) / Double(image.height), 1)
        let needed = (width: (Double(image.width) * scale).rounded(), height: (Double(image.height) * scale).rounded())
        return sameShape && Double(preview.width) >= needed.width && Double(preview.height) >= needed.height
    }
}
