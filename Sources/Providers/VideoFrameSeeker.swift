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
    /// The last file's animation timing (read from its chunks), kept while the file is unchanged:
    /// playing asks for up to twenty frames a second of the same file.
    private var timing: (path: String, identity: FileIdentity, animation: AnimationTiming?)?

    public init() {}

    private func animation(of path: String) -> AnimationTiming? {
        let identity = FileIdentity(path: path)
        if let timing, timing.path == path, timing.identity == identity { return timing.animation }
        let animation = AnimationTiming.of(path: path)
        timing = (path, identity, animation)
        return animation
    }

    /// The frame shown at `seconds` (the one at or before it, within half a frame) fitted into `box`, its time, and the
    /// video's duration when the container knows it.
    public func frame(path: String, seconds: Double, box: PixelSize,
                      cancellation: CancellationFlag) throws(ThumbnailError) -> (image: PixelImage, shownSeconds: Double, duration: Double?) {
        let animation = animation(of: path)
        if let animation, animation.container == .webP {
            // libav cannot read an animated WebP: libvips decodes the frame shown at that time.
            open = nil
            let frame = animation.frame(at: seconds)
            return (try VipsDecoder.thumbnail(path: path, page: frame.index, box: box, cancellation: cancellation), frame.start, animation.duration)
        }
        var video: OpenVideo
        if let kept = open, kept.path == path, kept.isCurrent { video = kept } else { video = try OpenVideo(path: path) }
        open = nil  // kept again only when this request succeeds: a failed decode leaves no state behind
        let shown = try video.frame(at: seconds, box: box, budget: Self.forwardBudget, reach: Self.forwardReach, cancellation: cancellation)
        open = video
        // libav plays an APNG's frames but does not know its length.
        return (shown.image, shown.shownSeconds, video.media.duration ?? animation?.duration)
    }

    /// Closes the video kept open, if any.
    public func close() { open = nil }

    /// Duration and whether there is a moving picture, from the headers (no frame is decoded): an
    /// animated PNG or WebP is timed from its chunks, a still one has no moving picture.
    public static func mediaFacts(path: String) throws(ThumbnailError) -> MediaFacts {
        switch AnimationTiming.read(path: path) {
        case .animation(let timing): return MediaFacts(duration: timing.duration, hasVideo: true)
        case .still: return MediaFacts(duration: nil, hasVideo: false)  // libav would call it a one-frame video
        case .neither: break
        }
        // A picture moves only when it is a Motion Photo (libav would call any JPEG a one-frame video).
        let movie = MotionPhoto.movieOffset(path: path)
        if movie == nil, FileFact.mayBeMotionPhoto(path) { return MediaFacts(duration: nil, hasVideo: false) }
        let media = try MediaFile(path: path, movieAt: movie)
        return MediaFacts(duration: media.duration, hasVideo: media.videoStream != nil)
    }
}
