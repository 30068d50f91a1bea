import SystemKit
import CAV
import Providers
import ThumbnailKit
import SystemKit

/// Trims and turns videos and songs by copying their streams into a new container of the same
/// kind (libavformat): no frame is decoded or encoded, so quality and bit rate stay the same.
/// Tags, cover art and stream side data are copied; a turn changes only the display matrix.
///
/// A trim can start only on a keyframe (a frame that decodes without the ones before it): the
/// start snaps back to the keyframe at or before the one asked for, and the result says so.
final class MediaRemuxer {
    private let input: UnsafeMutablePointer<AVFormatContext>
    private let output: UnsafeMutablePointer<AVFormatContext>
    private let cancellation: CancellationFlag

    private init(input path: String, output outputPath: String, cancellation: CancellationFlag) throws(ThumbnailError) {
        try LazyLibraries.require(CAV_library_error())
        CAV_quiet()
        self.cancellation = cancellation
        var opened: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_open_input(&opened, path, nil, nil)
        guard status >= 0, let opened else { throw Self.error("cannot open the file", status) }
        input = opened
        var made: UnsafeMutablePointer<AVFormatContext>?
        status = avformat_find_stream_info(opened, nil)
        if status >= 0 { status = avformat_alloc_output_context2(&made, nil, nil, outputPath) }
        guard status >= 0, let made else {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = opened
            avformat_close_input(&doomed)
            throw Self.error("cannot write this kind of file", status)
        }
        output = made
    }

    deinit {
        if let pb = output.pointee.pb, output.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            var doomed: UnsafeMutablePointer<AVIOContext>? = pb
            avio_closep(&doomed)
        }
        avformat_free_context(output)
        var doomed: UnsafeMutablePointer<AVFormatContext>? = input
        avformat_close_input(&doomed)
    }

    private var streams: [UnsafeMutablePointer<AVStream>] { (0..<Int(input.pointee.nb_streams)).compactMap { input.pointee.streams[$0] } }

    private var videoIndex: Int? {
        streams.firstIndex { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO && CAV_is_attached_pic($0) == 0 }
    }

    /// Keeps `start`…`end` seconds of the file at `input`, written to `output` (same suffix).
    static func trim(input: String, output: String, start: Double, end: Double, cancellation: CancellationFlag) throws(ThumbnailError) -> FileEditResult {
        guard start >= 0, end > start else { throw ThumbnailError(.unsupported, "the end must come after the start") }
        let remuxer = try MediaRemuxer(input: input, output: output, cancellation: cancellation)
        return try remuxer.copy(window: (start, end), rotation: nil)
    }

    /// Turns the video at `input` by quarter turns clockwise, written to `output` (MP4 and MOV).
    static func rotate(input: String, output: String, quarterTurns: Int, cancellation: CancellationFlag) throws(ThumbnailError) -> FileEditResult {
        let remuxer = try MediaRemuxer(input: input, output: output, cancellation: cancellation)
        let name = String(cString: remuxer.output.pointee.oformat.pointee.name)
        guard ["mp4", "mov", "ipod", "3gp", "3g2"].contains(name) else {
            throw ThumbnailError(.unsupported, "turning a video without re-encoding needs MP4 or MOV, whose display matrix players follow (this is \(name))")
        }
        guard remuxer.videoIndex != nil else { throw ThumbnailError(.unsupported, "the file has no video stream") }
        return try remuxer.copy(window: nil, rotation: quarterTurns)
    }

    private func copy(window: (start: Double, end: Double)?, rotation: Int?) throws(ThumbnailError) -> FileEditResult {
        for source in streams {
            guard let stream = avformat_new_stream(output, nil) else { throw ThumbnailError(.tooLarge, "out of memory") }
            var status = avcodec_parameters_copy(stream.pointee.codecpar, source.pointee.codecpar)
            if status >= 0 { status = CAV_copy_stream_side_data(source, stream) }
            guard status >= 0 else { throw Self.error("cannot copy a stream", status) }
            stream.pointee.codecpar.pointee.codec_tag = 0
            stream.pointee.time_base = source.pointee.time_base
            stream.pointee.disposition = source.pointee.disposition
            av_dict_copy(&stream.pointee.metadata, source.pointee.metadata, 0)
        }
        av_dict_copy(&output.pointee.metadata, input.pointee.metadata, 0)
        // Chapters follow the kept part (timed from the start asked for; a start snapped back to
        // its keyframe puts them up to one keyframe interval late).
        let microseconds = Double(CAV_time_base())
        guard CAV_copy_chapters(input, output, Int64(saturating: (window?.start ?? 0) * microseconds), window.map { Int64(saturating: $0.end * microseconds) } ?? -1) >= 0 else {
            throw ThumbnailError(.tooLarge, "out of memory")
        }
        if let rotation, let index = videoIndex, let stream = output.pointee.streams[index] {
            // The display matrix turns the stored picture; players show a matrix set to +90° a
            // quarter turn clockwise from the stored picture (checked against ffmpeg's autorotate).
            guard CAV_set_stream_rotation(stream, CAV_stream_rotation(streams[index]) + 90 * Double(rotation)) >= 0 else {
                throw ThumbnailError(.tooLarge, "out of memory")
            }
        }
        var status = avio_open(&output.pointee.pb, output.pointee.url, AVIO_FLAG_WRITE)
        if status >= 0 { status = avformat_write_header(output, nil) }
        guard status >= 0 else { throw Self.error("cannot write the file", status) }
        // Cover art is a picture stored once; the demuxer hands it out only before a seek.
        for (index, source) in streams.enumerated() where CAV_is_attached_pic(source) != 0 {
            guard let picture = av_packet_clone(&source.pointee.attached_pic) else { continue }
            picture.pointee.stream_index = Int32(index)
            av_interleaved_write_frame(output, picture)
            var doomed: UnsafeMutablePointer<AVPacket>? = picture
            av_packet_free(&doomed)
        }
        var span = PacketSpan(window: window)
        if let window, av_seek_frame(input, -1, Int64(saturating: window.start * Double(CAV_time_base())), AVSEEK_FLAG_BACKWARD) < 0 {
            av_seek_frame(input, -1, 0, AVSEEK_FLAG_BACKWARD)
        }
        var kept = [Int64](repeating: 0, count: streams.count)
        try copyPackets(&span, kept: &kept)
        status = av_write_trailer(output)
        guard status >= 0 else { throw Self.error("cannot finish the file", status) }
        if window != nil, String(cString: output.pointee.oformat.pointee.name) == "flac",
           let audio = streams.firstIndex(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }) {
            let seconds = Double(kept[audio]) * av_q2d(streams[audio].pointee.time_base)
            avio_flush(output.pointee.pb)
            try FLACStreamInfo.setSampleCount(Int64(saturating: (seconds * Double(streams[audio].pointee.codecpar.pointee.sample_rate)).rounded()), in: String(fileSystemRepresentation: output.pointee.url))
        }
        guard let first = span.firstKept else { throw ThumbnailError(.corrupt, "nothing of the file falls between the start and the end") }
        var result = FileEditResult(start: first, end: span.lastKept)
        if let window, first < window.start - 0.05 {
            result.notes.append("starts at \(FileEditResult.clock(first)), the nearest keyframe before \(FileEditResult.clock(window.start))")
        }
        return result
    }

    /// Reads every packet from where the input stands and writes those inside the window,
    /// their times moved back by where the result starts; `kept` adds up each stream's durations.
    private func copyPackets(_ span: inout PacketSpan, kept: inout [Int64]) throws(ThumbnailError) {
        guard let packet = av_packet_alloc() else { throw ThumbnailError(.tooLarge, "out of memory") }
        var doomed: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&doomed) }
        let sources = streams, video = videoIndex
        while av_read_frame(input, packet) >= 0 {
            defer { av_packet_unref(packet) }
            try cancellation.check()
            let index = Int(packet.pointee.stream_index)
            guard sources.indices.contains(index), CAV_is_attached_pic(sources[index]) == 0,
                  let outStream = output.pointee.streams[index] else { continue }
            let base = sources[index].pointee.time_base
            let stamp = packet.pointee.pts != CAV_nopts() ? packet.pointee.pts : packet.pointee.dts
            guard stamp != CAV_nopts() else { continue }
            let seconds = Double(stamp) * av_q2d(base)
            switch span.decide(seconds: seconds, isVideo: index == video, isKey: CAV_packet_is_key(packet) != 0, hasVideo: video != nil) {
            case .skip: continue
            case .stop: return
            case .keep(let shift):
                kept[index] += max(0, packet.pointee.duration)
                let offset = Int64(saturating: (shift / av_q2d(base)).rounded())
                if packet.pointee.pts != CAV_nopts() { packet.pointee.pts -= offset }
                if packet.pointee.dts != CAV_nopts() { packet.pointee.dts -= offset }
                av_packet_rescale_ts(packet, base, outStream.pointee.time_base)
                packet.pointee.pos = -1
                let status = av_interleaved_write_frame(output, packet)
                guard status >= 0 else { throw Self.error("cannot write the file", status) }
            }
        }
    }

    static func error(_ what: String, _ code: Int32) -> ThumbnailError {
        let detail = LibavErrorText.of(code)
        let kind: ThumbnailError.Code = code == -28 /* ENOSPC */ || code == -5 /* EIO */ ? .writeFailed : .corrupt
        return ThumbnailError(kind, "\(what): \(detail)")
    }
}
