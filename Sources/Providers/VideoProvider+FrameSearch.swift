import CAV
import ThumbnailKit

/// Counts the frames a search decoded (tests: how much work finding a frame took).
final class FrameTally {
    var frames = 0
}

extension VideoProvider {
    /// After a dark first frame, the search always goes on to the next position (a black intro
    /// is the usual reason to look further, and a heavy video's first position alone may take
    /// longer than this); other positions start only while the search has taken less than this:
    /// a video flat from end to end (a white test clip, a slide held for minutes) would otherwise
    /// be decoded at every position, and one flat video held a D-Bus client's whole first screen
    /// (0.4 s of a 0.5 s screen). 50 ms: a light video (SD, short GOPs: a position in 5–25 ms)
    /// still gets its third and fourth positions; a flat one stops after two (9bitwhite.mkv: 57 ms
    /// instead of 126), or after one when its first frame is flat but not dark (session 18: its
    /// second position cost a mixed first screen ~75 ms of a core for another white frame). Over
    /// the corpus's 15 videos only two searches change, both of videos with no position worth
    /// showing (session 16).
    static let searchBudget = Duration.milliseconds(50)

    /// The frame worth showing (the best one seen when none is), or nil when no frame decodes.
    /// `budget`: `searchBudget` but in tests.
    func bestFrame(media: MediaFile, stream: UnsafeMutablePointer<AVStream>, decoder: MediaDecoder, job: ProviderJob,
                   budget: Duration = searchBudget, tally: FrameTally? = nil) throws(ThumbnailError) -> PixelImage? {
        let frame = av_frame_alloc()
        defer { var doomed = frame; av_frame_free(&doomed) }
        guard let frame else { throw ThumbnailError(.tooLarge, "out of memory") }

        var best: (image: PixelImage, score: Double)?
        /// Whether the first frame in hand was dark: an intro, worth one more position past the budget.
        var startedDark = false
        /// Keeps the better of the frames seen; true when this one is worth showing.
        func judge() throws(ThumbnailError) -> Bool {
            let image = try picture(of: frame, stream: stream, box: job.box)
            if best == nil { startedDark = FrameQuality.isDark(image) }
            let score = FrameQuality.score(image)
            if best == nil || score > best!.score { best = (image, score) }
            return stillImage || FrameQuality.isInteresting(image)
        }
        func decode(skip: Int, until target: Double? = nil) throws(ThumbnailError) -> Bool {
            try decodeFrame(media: media, stream: stream, decoder: decoder, into: frame, skip: skip, until: target,
                            cancellation: job.cancellation, tally: tally)
        }
        let seekable = !stillImage && media.duration != nil && (media.context.pointee.pb == nil || media.context.pointee.pb.pointee.seekable != 0)
        if let duration = media.duration, seekable {
            let timeline = StreamTimeline(stream: stream)
            let indexed = Self.indexesEveryKeyframe(media)
            let begun = ContinuousClock.now
            /// How many positions were tried since the first frame was in hand.
            var triedSince = 0
            /// Where the decoder stands (the last frame's time), while decoding on from there is possible.
            var decodedUpTo: Double?
            for position in Self.positions {
                try job.cancellation.check()
                if best != nil {
                    let pastIntro = triedSince == 0 && startedDark
                    if !pastIntro && ContinuousClock.now - begun > budget { break }
                    triedSince += 1
                }
                let seconds = duration * position
                let keyframe = indexed ? timeline.keyframe(atOrBefore: seconds) : nil
                if Self.needsSeek(to: seconds, keyframeBefore: keyframe, decodedUpTo: decodedUpTo) {
                    timeline.seek(media, to: seconds)
                    avcodec_flush_buffers(decoder.codec)
                }
                // The seek lands on the keyframe at or before the position: decode on to the position.
                guard try decode(skip: 0, until: seconds) else {
                    decodedUpTo = nil
                    continue
                }
                decodedUpTo = timeline.seconds(of: frame)
                if try judge() { break }
            }
        } else if stillImage {
            if try decode(skip: 0) { _ = try judge() }
        } else {
            // No duration to go by (a stream written to a pipe): from the start, a frame every half
            // second, until one is neither black nor flat (intros and fades are).
            let rate = av_q2d(stream.pointee.avg_frame_rate)
            let halfSecond = rate > 0 && rate.isFinite ? max(1, Int((rate / 2).rounded())) : 12
            for look in 0..<Self.scanLooks {
                try job.cancellation.check()
                guard try decode(skip: look == 0 ? 0 : halfSecond - 1) else { break }
                if try judge() { break }
            }
        }
        return best?.image
    }

    /// Whether the demuxer's index holds every keyframe of the file once it has been opened and
    /// sought: MP4/QuickTime (the sample tables) and Matroska/WebM (the cues). MPEG-TS, MPEG-PS,
    /// FLV, AVI without idx1 and raw streams index only the keyframes read so far, so "the last
    /// keyframe before the target" looked to be behind the decoder, and a search decoded on for
    /// its whole forward budget towards a target a seek would have reached at once.
    static func indexesEveryKeyframe(_ media: MediaFile) -> Bool {
        guard let format = media.context.pointee.iformat, let name = format.pointee.name else { return false }
        let names = String(cString: name).split(separator: ",")
        return names.contains("mp4") || names.contains("matroska")
    }

    /// Whether reaching `target` takes a seek. Not when the decoder already stands past the
    /// keyframe the seek would land on and short of the target: decoding on is then the shorter
    /// way (a video with one keyframe was decoded from its start again for every position).
    /// Unknown keyframes (no index) or an unknown standing: seek.
    static func needsSeek(to target: Double, keyframeBefore keyframe: Double?, decodedUpTo: Double?) -> Bool {
        guard let keyframe, let decodedUpTo else { return true }
        return !(keyframe <= decodedUpTo && decodedUpTo < target)
    }
}
