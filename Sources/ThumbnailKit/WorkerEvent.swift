import SystemKit
/// What a worker reports about one request, as the pool hands it to the generator.
public enum WorkerEvent: Sendable {
    /// The content type the worker sniffed from the file's bytes.
    case contentType(ContentType)
    /// A picture of the file.
    case image(RepresentationType, PixelImage, source: String, facts: [FileFact])
}
