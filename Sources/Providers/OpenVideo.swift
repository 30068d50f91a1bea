import SystemKit
import CAV
import ThumbnailKit
#if canImport(Glibc)
import Glibc
import SystemKit
#endif

/// A video opened for seeking, kept by `VideoFrameSeeker` between requests: after a frame at one
/// time, a frame a little later is reached by decoding on from where the decoder stands instead of
/// seeking back to a keyframe, so stepping forward and playing cost only the frames in between.
final class OpenVideo {
    let path: String
    private let identity: FileIdentity
    let media: MediaFile
    private let stream: UnsafeMutablePointer<AVStream>
    private let decoder: MediaDecoder
    private let frame: UnsafeMutablePointer<AVFrame>
    /// The last frame decoded, and its time in seconds (nil right after a seek).
    private let shown: UnsafeMutablePointer<AVFrame>
    private var shownSeconds: Double?
    /// The time the last request asked for.
    private var lastTarget: Double?
    private let timeline: StreamTimeline

    init(path: String) throws(ThumbnailError) {
        self.path = path
        identity = FileIdentity(path: path)
        media = try MediaFile(path: path)
        guard let stream = media.videoStream else { throw ThumbnailError(.unsupported, "the file has no video stream") }
        self.stream = stream
        decoder = try media.decoder(for: stream)
        guard let frame = av_frame_alloc(), let shown = av_frame_alloc() else { throw ThumbnailError(.tooLarge, "out of memory") }
        self.frame = frame
        self.shown = shown
        timeline = StreamTimeline(stream: stream)
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&doomed)
        doomed = shown
        av_frame_free(&doomed)
    }

    /// Whether the file on disk is still the one that was opened.
    var isCurrent: Bool { FileIdentity(path: path) == identity }

    /// The frame at or before `seconds`, reached within `budget` of decoding (see `VideoFrameSeeker`).
    func frame(at seconds: Double, box: PixelSize, budget: Duration, reach: Double,
               cancellation: CancellationFlag) throws(ThumbnailError) -> (image: PixelImage, shownSeconds: Double) {
        let halfFrame = timeline.halfFrame
        var target = max(0, seconds)
        if let duration = media.duration { target = min(target, max(0, duration - 2 * halfFrame)) }
        // Decode on when the target is a little ahead, or when the last request fell short of its
        // target (a keyframe far back) and this one is a little after that: seeking would only
        // land on the same keyframe again.
        let onward = shownSeconds.map { shown in
            target >= shown - halfFrame && (target - shown <= reach || lastTarget.map { shown < $0 && target - $0 <= reach } ?? false)
        } ?? false
        if !onward { seek(to: target) }
        lastTarget = target
        let provider = VideoProvider()
        let begun = ContinuousClock.now
        defer { decoder.codec.pointee.skip_frame = AVDISCARD_DEFAULT }
        while shownSeconds.map({ $0 + halfFrame < target }) ?? true, ContinuousClock.now - begun <= budget {
            // Far before the target, frames nothing refers to are not worth decoding.
            decoder.codec.pointee.skip_frame = (shownSeconds ?? 0) < target - 0.5 ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
            guard try provider.decodeFrame(media: media, stream: stream, decoder: decoder, into: frame, skip: 0, cancellation: cancellation) else { break }
            let time = timeline.seconds(of: frame) ?? shownSeconds ?? 0
            av_frame_unref(shown)
            av_frame_move_ref(shown, frame)
            shownSeconds = max(0, time)
        }
        guard let shownSeconds else { throw ThumbnailError(.corrupt, "no video frame could be decoded") }
        try cancellation.check()
        return (try provider.picture(of: shown, stream: stream, box: box), shownSeconds)
    }

    /// Jumps to the keyframe at or before `target`, or to the start when the file cannot seek by time.
    private func seek(to target: Double) {
        shownSeconds = nil
        av_frame_unref(shown)
        guard timeline.timeBase > 0 else { return }
        timeline.seek(media, to: target)
        avcodec_flush_buffers(decoder.codec)
    }
}

/// Device, inode, size and modification time: a file replaced or rewritten since is not reused.
struct FileIdentity: Equatable {
    let values: [Int]

    init(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { values = []; return }
        // Bit patterns: an inode number may use the top bit (overlayfs with xino), which Int(_:) would trap on.
        values = [Int(truncatingIfNeeded: status.st_dev), Int(truncatingIfNeeded: status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
    }
}
