import ThumbnailKit

/// ThumbnailKit's `JPEGDecoder` with a worker's cancellation flag, as the providers call it.
extension JPEGDecoder {
    /// A thumbnail of the file at `path` fitting `box`, `orientation` applied; stops when cancelled.
    static func thumbnail(path: String, box: PixelSize, orientation: Int, cancellation: CancellationFlag) throws(ThumbnailError) -> Outcome {
        try thumbnail(path: path, box: box, orientation: orientation, cancel: cancellation.cFlag)
    }

    /// The same from a JPEG in memory (a preview the file embeds), without loading libvips.
    static func thumbnail(bytes: [UInt8], box: PixelSize, orientation: Int, cancellation: CancellationFlag) throws(ThumbnailError) -> Outcome {
        try thumbnail(bytes: bytes, box: box, orientation: orientation, cancel: cancellation.cFlag)
    }
}
