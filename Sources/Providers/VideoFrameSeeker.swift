import ThumbnailKit

/// Video frames at chosen times, for Quick Look's position bar, seeking and playing: the keyframe
/// at or before the time, then frames decoded forward towards it for at most `forwardBudget`, so a
/// seek costs about the same wherever the keyframes are (with keyframes far apart the frame shown
/// can be earlier than asked; the caller is told its time). The last video stays open: a request
/// a little later in the same file (up to `forwardReach`) decodes on from there without seeking.
/// Frames are shown as `VideoProvider` shows them (aspect ratio and rotation applied).
public final class VideoFrameSeeker {
    /// How long decoding forward from the keyframe may take before the frame reached is shown.
    public static let forwardBudget = Duration.milliseconds(150)
    /// How far after the last frame shown a request is served by decoding on instead of seeking.
    public static let forwardReach = 3.0
    private var open: OpenVideo?

    public init() {}

    /// The frame shown at `seconds` (the one at or before it, within half a frame) fitted into `box`, its time, and the
    /// video's duration when the container knows it.
    public func frame(path: String, seconds: Double, box: PixelSize,
                      cancellation: CancellationFlag) throws(ThumbnailError) -> (image: PixelImage, shownSeconds: Double, duration: Double?) {
        var video: OpenVideo
        if let kept = open, kept.path == path, kept.isCurrent { video = kept } else { video = try OpenVideo(path: path) }
        open = nil  // kept again only when this request succeeds: a failed decode leaves no state behind
        let shown = try video.frame(at: seconds, box: box, budget: Self.forwardBudget, reach: Self.forwardReach, cancellation: cancellation)
        open = video
        return (shown.image, shown.shownSeconds, video.media.duration)
    }

    /// Closes the video kept open, if any.
    public func close() { open = nil }

    /// Duration and whether there is a moving picture, from the headers (no frame is decoded).
    public static func mediaFacts(path: String) throws(ThumbnailError) -> MediaFacts {
        let media = try MediaFile(path: path)
        return MediaFacts(duration: media.duration, hasVideo: media.videoStream != nil)
    }
}
