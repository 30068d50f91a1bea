/// The seam where a thumbnail cache plugs into the generator: asked before any decoding, told about
/// every thumbnail made and every failure, so a broken file is not retried until it changes.
public protocol ThumbnailCaching: Sendable {
    /// The box to decode at so the result can be stored (the cache's size class covering `box`).
    func generationBox(for box: PixelSize) -> PixelSize
    /// A stored picture for the request, fitted to `box`: `.thumbnail` when it is valid for this
    /// box's size class, `.lowQuality` when it is of another size (only when the request asks for
    /// low quality); nil when there is none.
    func cachedRepresentation(for request: ThumbnailRequest, box: PixelSize) -> Representation?
    /// The remembered failure for the file, while the file has not changed since.
    func knownFailure(for request: ThumbnailRequest) -> ThumbnailError?
    /// Keeps a freshly made thumbnail (made at `generationBox(for: box)`); returns the PNG it wrote,
    /// so a caller saving the same picture as PNG need not encode it again. `stamp` is the file as
    /// it was before decoding: a file changed meanwhile then looks stale, and a volume that went
    /// away after the read does not lose a finished thumbnail. Throws when the thumbnail could not
    /// be written (a full disk, a read-only cache): the caller counts that as a failure.
    @discardableResult
    func store(_ representation: Representation, for request: ThumbnailRequest, box: PixelSize, stamp: FileStamp?) throws(ThumbnailError) -> [UInt8]?
    /// Remembers that the file could not be thumbnailed.
    func recordFailure(_ error: ThumbnailError, for request: ThumbnailRequest)
}
