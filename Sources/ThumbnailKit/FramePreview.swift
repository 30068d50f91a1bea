/// One video frame as `PreviewGenerator.frame(path:seconds:box:)` returns it.
public struct FramePreview: Sendable, Equatable {
    /// The frame as a player shows it (aspect ratio and rotation applied), fitted into the box.
    public let image: PixelImage
    /// The time of the frame shown, in seconds: at or before the time asked for (see `frame`).
    public let shownSeconds: Double
    /// The length of the video in seconds, when the container knows it (for a position bar).
    public let duration: Double?

    public init(image: PixelImage, shownSeconds: Double, duration: Double?) {
        self.image = image
        self.shownSeconds = shownSeconds
        self.duration = duration
    }
}
