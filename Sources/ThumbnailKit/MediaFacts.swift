/// What `PreviewGenerator.mediaFacts(path:)` learns of an audio or video file without decoding it:
/// enough for a position bar.
public struct MediaFacts: Sendable, Equatable, Codable {
    /// The length in seconds, when the container knows it.
    public let duration: Double?
    /// Whether the file has a moving picture (cover art does not count).
    public let hasVideo: Bool

    public init(duration: Double?, hasVideo: Bool) {
        self.duration = duration
        self.hasVideo = hasVideo
    }
}
