import SystemKit
import CAV
import ThumbnailKit

/// An opened audio or video file (libavformat), closed when released.
final class MediaFile {
    let context: UnsafeMutablePointer<AVFormatContext>

    convenience init(path: String) throws(ThumbnailError) {
        try self.init(path: path, movieAt: MotionPhoto.movieOffset(path: path))
    }

    /// Opens the file at `path`, or, for a Motion Photo, the movie found inside it at `offset`.
    init(path: String, movieAt offset: Int?) throws(ThumbnailError) {
        try LazyLibraries.require(CAV_library_error())
        CAV_quiet()
        var context: UnsafeMutablePointer<AVFormatContext>?
        let (url, isMotionPhoto) = MotionPhoto.mediaURL(path: path, movieAt: offset)
        var options: OpaquePointer?
        if isMotionPhoto { av_dict_set(&options, "protocol_whitelist", "file,subfile", 0) }
        defer { av_dict_free(&options) }
        let status = avformat_open_input(&context, url, nil, &options)
        guard status >= 0, let context else { throw MediaFile.error("cannot open the file", status) }
        self.context = context
        let found = avformat_find_stream_info(context, nil)
        guard found >= 0 else {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&doomed)
            throw MediaFile.error("cannot read the streams", found)
        }
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&doomed)
    }

    var streams: [UnsafeMutablePointer<AVStream>] {
        (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0] }
    }

    /// The first stream with a moving picture (attached cover art does not count).
    var videoStream: UnsafeMutablePointer<AVStream>? {
        streams.first { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO && CAV_is_attached_pic($0) == 0 }
    }

    var hasAudio: Bool { streams.contains { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO } }

    /// Duration in seconds, when the container knows it.
    var duration: Double? {
        let raw = context.pointee.duration
        guard raw != CAV_nopts(), raw > 0 else { return nil }
        return Double(raw) / Double(CAV_time_base())
    }

    /// A decoder opened for `stream`.
    func decoder(for stream: UnsafeMutablePointer<AVStream>) throws(ThumbnailError) -> MediaDecoder {
        try MediaDecoder(stream: stream)
    }

    static func error(_ what: String, _ code: Int32) -> ThumbnailError {
        let detail = LibavErrorText.of(code)
        let unsupported = code == -1094995529 /* AVERROR_INVALIDDATA */ || detail.contains("Invalid data")
        return ThumbnailError(unsupported ? .unsupported : .corrupt, "\(what): \(detail)")
    }
}

/// libav's words for an error code ("Invalid data found when processing input"), for messages
/// of the libav users here and in the editors.
public enum LibavErrorText {
    public static func of(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        CAV_error_string(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A codec context for one stream, freed when released.
final class MediaDecoder {
    let codec: UnsafeMutablePointer<AVCodecContext>

    init(stream: UnsafeMutablePointer<AVStream>) throws(ThumbnailError) {
        guard let parameters = stream.pointee.codecpar, let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw ThumbnailError(.unsupported, "no decoder for this codec")
        }
        guard let codec = avcodec_alloc_context3(decoder) else { throw ThumbnailError(.tooLarge, "out of memory") }
        self.codec = codec
        guard avcodec_parameters_to_context(codec, parameters) >= 0 else { throw ThumbnailError(.corrupt, "bad codec parameters") }
        codec.pointee.thread_count = 1
        let status = avcodec_open2(codec, decoder, nil)
        guard status >= 0 else { throw MediaFile.error("cannot open the decoder", status) }
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVCodecContext>? = codec
        avcodec_free_context(&doomed)
    }
}
