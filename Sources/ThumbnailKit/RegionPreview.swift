/// A part of a picture, enlarged, for zooming in Quick Look.
public struct RegionPreview: Sendable {
    public let image: PixelImage
    /// The whole picture's size at the zoom asked for.
    public let fullSize: PixelSize

    public init(image: PixelImage, fullSize: PixelSize) {
        self.image = image
        self.fullSize = fullSize
    }
}
