/// One page of a document as `PreviewGenerator.page(path:index:box:)` returns it.
public struct PagePreview: Sendable, Equatable {
    /// The page rendered at the size that fits the box (vector rendering at that size, not a
    /// scaled thumbnail), on white paper.
    public let image: PixelImage
    /// The page shown, from 0: the one asked for, clamped to the document's pages.
    public let index: Int
    /// How many pages the document has (at least 1).
    public let pageCount: Int
    /// The page's size in points as shown (its crop box, turned by its /Rotate), rounded; nil
    /// from a worker that did not say. Markup measures a page's marks in these points.
    public let points: PixelSize?

    public init(image: PixelImage, index: Int, pageCount: Int, points: PixelSize? = nil) {
        self.image = image
        self.index = index
        self.pageCount = pageCount
        self.points = points
    }
}
