import CAV

/// A video stream's times in seconds from its start: frames' timestamps read, seeks made and
/// keyframes looked up in the same terms by the thumbnail's frame search, its decoding towards a
/// position, and Quick Look's open video.
struct StreamTimeline {
    let stream: UnsafeMutablePointer<AVStream>
    let timeBase: Double
    let start: Int64
    /// Half a frame's duration (from the average frame rate; 0.02 s when there is none).
    let halfFrame: Double

    init(stream: UnsafeMutablePointer<AVStream>) {
        self.stream = stream
        timeBase = av_q2d(stream.pointee.time_base)
        start = stream.pointee.start_time == CAV_nopts() ? 0 : stream.pointee.start_time
        let rate = av_q2d(stream.pointee.avg_frame_rate)
        halfFrame = rate > 0 && rate.isFinite ? 0.5 / rate : 0.02
    }

    /// The stream's timestamp for `seconds` from its start (saturating: a hostile time base must
    /// not trap).
    func stamp(_ seconds: Double) -> Int64 {
        guard timeBase > 0 else { return start }
        return start.addingReportingOverflow(Int64(saturating: seconds / timeBase)).partialValue
    }

    /// The time of the frame's timestamp, nil when it has none.
    func seconds(of frame: UnsafeMutablePointer<AVFrame>) -> Double? {
        let stamp = frame.pointee.best_effort_timestamp
        guard stamp != CAV_nopts(), timeBase > 0 else { return nil }
        return Double(stamp - start) * timeBase
    }

    /// Jumps to the keyframe at or before `seconds`, or to the file's start when it cannot seek by
    /// time; nothing when the stream has no time base. The caller flushes its decoder.
    func seek(_ media: MediaFile, to seconds: Double) {
        guard timeBase > 0 else { return }
        if av_seek_frame(media.context, stream.pointee.index, stamp(seconds), AVSEEK_FLAG_BACKWARD) < 0 {
            av_seek_frame(media.context, -1, 0, AVSEEK_FLAG_BACKWARD)
        }
    }

    /// The time of the last keyframe at or before `seconds` that the demuxer's index knows (the
    /// index fills as the file is read and sought), nil when it knows none.
    func keyframe(atOrBefore seconds: Double) -> Double? {
        guard timeBase > 0 else { return nil }
        let index = av_index_search_timestamp(stream, stamp(seconds), AVSEEK_FLAG_BACKWARD)
        guard index >= 0, let entry = avformat_index_get_entry(stream, index), entry.pointee.timestamp != CAV_nopts() else { return nil }
        return Double(entry.pointee.timestamp - start) * timeBase
    }
}
