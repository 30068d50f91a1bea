import SystemKit
/// What a worker reports about one request, as the pool hands it to the generator.
public enum WorkerEvent: Sendable {
    /// The content type the worker sniffed from the file's bytes.
    case contentType(ContentType)
    /// A picture of the file.
    case image(RepresentationType, PixelImage, source: String, facts: [FileFact])
    /// The answer to a preview request (a page, a frame, a member listing), for `PreviewGenerator`.
    case preview(PreviewReply)
}

/// A worker's answer to a preview request, as it came over the pipe; `PreviewGenerator` reads it.
public struct PreviewReply: Sendable {
    package let message: WorkerMessage
    package let payload: [UInt8]

    package init(message: WorkerMessage, payload: [UInt8]) {
        self.message = message
        self.payload = payload
    }
}
