import CAV
import ThumbnailKit

/// A video frame at a chosen time, for Quick Look's position bar and seeking: the keyframe at or
/// before the time, then frames decoded forward towards it for at most `forwardBudget`, so a seek
/// costs about the same wherever the keyframes are. The frame is shown as `VideoProvider` shows
/// it (aspect ratio and rotation applied).
public struct VideoFrameSeeker {
    /// How long decoding forward from the keyframe may take before the frame reached is shown.
    public static let forwardBudget = Duration.milliseconds(150)

    public init() {}

    /// The frame nearest `seconds` (at or before it) fitted into `box`, the time it shows, and the
    /// video's duration when the container knows it.
    public func frame(path: String, seconds: Double, box: PixelSize,
                      cancellation: CancellationFlag) throws(ThumbnailError) -> (image: PixelImage, shownSeconds: Double, duration: Double?) {
        let media = try MediaFile(path: path)
        guard let stream = media.videoStream else { throw ThumbnailError(.unsupported, "the file has no video stream") }
        let decoder = try media.decoder(for: stream)
        let frame = av_frame_alloc(), shown = av_frame_alloc()
        defer { var doomed = frame; av_frame_free(&doomed); doomed = shown; av_frame_free(&doomed) }
        guard let frame, let shown else { throw ThumbnailError(.tooLarge, "out of memory") }

        let timeBase = av_q2d(stream.pointee.time_base)
        let start = stream.pointee.start_time == CAV_nopts() ? 0 : stream.pointee.start_time
        let rate = av_q2d(stream.pointee.avg_frame_rate)
        let halfFrame = rate > 0 && rate.isFinite ? 0.5 / rate : 0.02
        var target = max(0, seconds)
        if let duration = media.duration { target = min(target, max(0, duration - 2 * halfFrame)) }
        if timeBase > 0 {
            let timestamp = start + Int64(target / timeBase)
            if av_seek_frame(media.context, stream.pointee.index, timestamp, AVSEEK_FLAG_BACKWARD) < 0 {
                av_seek_frame(media.context, -1, 0, AVSEEK_FLAG_BACKWARD)  // not seekable by time: from the start
            }
            avcodec_flush_buffers(decoder.codec)
        }
        let provider = VideoProvider()
        let begun = ContinuousClock.now
        var shownSeconds: Double?
        while try provider.decodeFrame(media: media, stream: stream, decoder: decoder, into: frame, skip: 0, cancellation: cancellation) {
            let stamp = frame.pointee.best_effort_timestamp
            let time = stamp == CAV_nopts() ? (shownSeconds ?? 0) : Double(stamp - start) * timeBase
            av_frame_unref(shown)
            av_frame_move_ref(shown, frame)
            shownSeconds = max(0, time)
            if time + halfFrame >= target || ContinuousClock.now - begun > Self.forwardBudget { break }
        }
        guard let shownSeconds else { throw ThumbnailError(.corrupt, "no video frame could be decoded") }
        try cancellation.check()
        return (try provider.picture(of: shown, stream: stream, box: box), shownSeconds, media.duration)
    }
}

extension VideoFrameSeeker {
    /// Duration and whether there is a moving picture, from the headers (no frame is decoded).
    public static func mediaFacts(path: String) throws(ThumbnailError) -> MediaFacts {
        let media = try MediaFile(path: path)
        return MediaFacts(duration: media.duration, hasVideo: media.videoStream != nil)
    }
}
