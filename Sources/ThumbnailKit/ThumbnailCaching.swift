/// The seam where a thumbnail cache plugs into the generator: asked before any decoding, told about
/// every thumbnail made and every failure, so a broken file is not retried until it changes.
public protocol ThumbnailCaching: Sendable {
    /// A stored picture for the request: `.thumbnail` when it is valid for this box, `.lowQuality`
    /// when it is of another size; nil when there is none.
    func cachedRepresentation(for request: ThumbnailRequest, box: PixelSize) -> Representation?
    /// Keeps a freshly made thumbnail.
    func store(_ representation: Representation, for request: ThumbnailRequest, box: PixelSize)
    /// Remembers that the file could not be thumbnailed.
    func recordFailure(_ error: ThumbnailError, for request: ThumbnailRequest)
}
