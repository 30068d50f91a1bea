import Providers
import ThumbnailKit

/// A whole JPEG read for a lossless edit (turn, crop): every byte of it or a failure, and its
/// EXIF orientation tag, which says how the stored pixels are shown.
struct JPEGFile {
    /// The file's bytes, all of them.
    let bytes: [UInt8]
    /// The EXIF orientation tag (1 when there is none).
    let orientation: Int

    /// Reads `path` whole (at most 512 MB: an edit holds it and its result in memory).
    init(reading path: String) throws(ThumbnailError) {
        let file = try FileBytes(path: path)
        guard file.size <= 512 << 20 else { throw ThumbnailError(.tooLarge, "the JPEG is larger than 512 MB") }
        let bytes = file.readAll(limit: file.size)
        guard bytes.count == file.size else { throw ThumbnailError(.unreadable, "cannot read the whole file") }
        self.bytes = bytes
        orientation = JPEGMetadata.parse(header: Array(bytes.prefix(256 * 1024)), fileSize: bytes.count)?.orientation ?? 1
    }
}
