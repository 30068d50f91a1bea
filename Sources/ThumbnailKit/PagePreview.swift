/// One page of a document as `PreviewGenerator.page(path:index:box:)` returns it.
public struct PagePreview: Sendable, Equatable {
    /// The page rendered at the size that fits the box (vector rendering at that size, not a
    /// scaled thumbnail), on white paper.
    public let image: PixelImage
    /// The page shown, from 0: the one asked for, clamped to the document's pages.
    public let index: Int
    /// How many pages the document has (at least 1).
    public let pageCount: Int

    public init(image: PixelImage, index: Int, pageCount: Int) {
        self.image = image
        self.index = index
        self.pageCount = pageCount
    }
}
