import SystemKit
import ThumbnailKit

/// A JPEG's own preview (its EXIF thumbnail, else its first MPF preview) read over SFTP: the
/// engine's parsing (`JPEGMetadata`) and choice (`EmbeddedThumbnail.candidates`, `.fills`) on the
/// file's first bytes, the preview's own bytes read as one range when they are past them, and
/// libjpeg-turbo decoding it from memory. Nothing else of the photo crosses the link.
enum SFTPEmbeddedPreview {
    /// The first bytes read of a file: every APP segment of a JPEG is within them.
    static let headBytes = 128 * 1024

    /// The preview of the JPEG whose first bytes are `head` (of `fileSize`), fitted to `box` with
    /// the photo's orientation, where it came from ("exif", "mpf"), and whether it `fills` the
    /// box (then it is the thumbnail, else only a low-quality one); nil when there is none.
    static func image(head: [UInt8], fileSize: Int, box: PixelSize,
                      read: (Range<Int>) async -> [UInt8]?) async -> (image: PixelImage, source: String, fills: Bool)? {
        guard let metadata = JPEGMetadata.parse(header: head, fileSize: fileSize), let stored = metadata.storedSize else { return nil }
        var fallback: (image: PixelImage, source: String, fills: Bool)?
        for (range, source) in EmbeddedThumbnail.candidates(metadata) where range.count <= EmbeddedThumbnail.maximumBytes {
            let bytes = range.upperBound <= head.count ? Array(head[range]) : await read(range)
            guard let bytes, bytes.count == range.count,
                  let header = JPEGMetadata.parse(header: Array(bytes.prefix(headBytes)), fileSize: bytes.count),
                  let preview = header.storedSize, max(preview.width, preview.height) <= EmbeddedThumbnail.maximumSide else { continue }
            // EXIF thumbnails carry no orientation of their own: the photo's applies.
            let orientation = source == "exif" ? metadata.orientation : header.orientation
            guard case .image(let image)? = try? JPEGDecoder.thumbnail(bytes: bytes, box: box, orientation: orientation, cancel: nil) else { continue }
            let fills = EmbeddedThumbnail.fills(box, preview: preview, image: stored, orientation: metadata.orientation)
            if fills { return (image, source, true) }
            if fallback == nil { fallback = (image, source, false) }
        }
        return fallback
    }
}
