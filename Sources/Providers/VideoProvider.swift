import CAV
import ThumbnailKit
import SystemKit

/// Videos (MP4, MKV, WebM, MOV, AVI, …) through libavformat/libavcodec: a frame around 10 % in
/// that is neither near-black nor flat (trying a few positions, as totem and ffmpegthumbnailer
/// do), shown as the player would: sample aspect ratio and display-matrix rotation applied. After
/// a seek, frames are decoded on from the keyframe to the position (a realtime encoder's WebM may
/// have one keyframe, at the start); a file without a duration is read from the start, a frame
/// looked at every half second until one is worth showing. A container with sound and no video
/// stream goes to `AudioProvider` (cover art or waveform).
public struct VideoProvider: ThumbnailProvider {
    public let name = "libav"
    /// A still picture in a format only FFmpeg decodes (BMP, TGA, PCX…): its only frame, as is.
    let stillImage: Bool

    /// Where to look, as fractions of the duration, in order.
    static let positions: [Double] = [0.10, 0.25, 0.50, 0.75, 0.04]
    /// How long decoding on from a keyframe towards one position may take before the frame reached is used.
    static let forwardBudget = Duration.milliseconds(600)
    /// Without a duration: how many frames are looked at, half a second apart.
    static let scanLooks = 24

    public init(stillImage: Bool = false) {
        self.stillImage = stillImage
    }

    public func makeImages(for job: ProviderJob, emit: (ProviderImage) -> Void) throws(ThumbnailError) {
        let media = try MediaFile(path: job.path)
        guard let stream = media.videoStream else {
            // Containers that hold video or sound alike (ASF for WMA, MP4 with an "isom" brand for
            // M4A) are sniffed as video: with sound and no moving picture, it is audio after all.
            if !stillImage && media.hasAudio {
                return try AudioProvider().makeImages(for: job, emit: emit)
            }
            guard job.wantsThumbnail else { return }
            throw ThumbnailError(.unsupported, "the file has no video stream")
        }
        guard job.wantsThumbnail else { return }
        let decoder = try media.decoder(for: stream)
        guard let best = try bestFrame(media: media, stream: stream, decoder: decoder, job: job) else {
            throw ThumbnailError(.corrupt, "no video frame could be decoded")
        }
        emit(ProviderImage(.thumbnail, best, source: name, facts: media.facts(video: stream)))
    }

    /// Reads packets until the decoder yields a frame (after skipping `skip` frames, and, with
    /// `until`, the frames before that time in seconds for at most `forwardBudget`: the last frame
    /// decoded is kept when the budget runs out or the stream ends). False when there is no frame.
    /// `tally` counts the frames the decoder put out.
    func decodeFrame(media: MediaFile, stream: UnsafeMutablePointer<AVStream>, decoder: MediaDecoder,
                     into frame: UnsafeMutablePointer<AVFrame>, skip: Int, until target: Double? = nil,
                     cancellation: CancellationFlag, tally: FrameTally? = nil) throws(ThumbnailError) -> Bool {
        guard let packet = av_packet_alloc() else { return false }
        defer { var doomed: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&doomed) }
        let timeline = StreamTimeline(stream: stream)
        let begun = ContinuousClock.now
        // The last frame short of the target, kept in case the stream ends or the budget runs out first.
        var earlier: UnsafeMutablePointer<AVFrame>? = nil
        defer {
            if earlier != nil { av_frame_free(&earlier) }
            decoder.codec.pointee.skip_frame = AVDISCARD_DEFAULT
        }
        /// Whether `frame` is short of the target and there is time to decode on.
        func shortOfTarget() -> Bool {
            guard let target, let time = timeline.seconds(of: frame) else { return false }
            guard time + timeline.halfFrame < target, ContinuousClock.now - begun <= Self.forwardBudget else { return false }
            // Far before the target, frames nothing refers to are not worth decoding.
            decoder.codec.pointee.skip_frame = time < target - 0.5 ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
            return true
        }
        /// At the end of the stream, the last frame decoded short of the target is the answer.
        func fallBack() -> Bool {
            guard let kept = earlier else { return false }
            av_frame_unref(frame)
            av_frame_move_ref(frame, kept)
            return true
        }
        var skipped = 0
        var packets = 0
        var draining = false
        while packets < 2000 {
            try cancellation.check()
            if !draining {
                let read = av_read_frame(media.context, packet)
                if read < 0 {
                    draining = true
                    avcodec_send_packet(decoder.codec, nil)
                } else {
                    packets += 1
                    defer { av_packet_unref(packet) }
                    if packet.pointee.stream_index != stream.pointee.index { continue }
                    let sent = avcodec_send_packet(decoder.codec, packet)
                    if sent < 0 && sent != CAV_error_eagain() { continue }
                }
            }
            while true {
                let received = avcodec_receive_frame(decoder.codec, frame)
                if received == CAV_error_eagain() { break }
                if received < 0 { return fallBack() }  // end of stream or a decoder error
                tally?.frames += 1
                if skipped < skip { skipped += 1; av_frame_unref(frame); continue }
                if shortOfTarget() {
                    if earlier == nil { earlier = av_frame_alloc() }
                    if let kept = earlier { av_frame_unref(kept); av_frame_move_ref(kept, frame) } else { av_frame_unref(frame) }
                    continue
                }
                return true
            }
        }
        return fallBack()
    }

    /// The frame scaled into the box with its display aspect ratio and rotation.
    func picture(of frame: UnsafeMutablePointer<AVFrame>, stream: UnsafeMutablePointer<AVStream>, box: PixelSize) throws(ThumbnailError) -> PixelImage {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        guard width > 0, height > 0 else { throw ThumbnailError(.corrupt, "the video frame has no size") }
        var aspect = frame.pointee.sample_aspect_ratio
        if aspect.num <= 0 || aspect.den <= 0 { aspect = stream.pointee.sample_aspect_ratio }
        if aspect.num <= 0 || aspect.den <= 0 { aspect = stream.pointee.codecpar.pointee.sample_aspect_ratio }
        let sar = aspect.num > 0 && aspect.den > 0 ? Double(aspect.num) / Double(aspect.den) : 1
        let displayWidth = max(1, Int(saturating: (Double(width) * sar).rounded()))
        let turns = Self.clockwiseQuarterTurns(fromDisplayRotation: CAV_stream_rotation(stream))
        let mirrored = CAV_stream_hflip(stream) != 0
        // Fit the box as displayed, then scale the unrotated frame to the matching size.
        let displayed = turns % 2 == 1 ? PixelSize(width: height, height: displayWidth) : PixelSize(width: displayWidth, height: height)
        let fitted = ThumbnailGeometry.fit(displayed, in: box)
        let target = turns % 2 == 1 ? PixelSize(width: fitted.height, height: fitted.width) : fitted
        // swscale's vector code may write past the last row's end (seen with VP6F frames scaled to
        // their own size: a heap overrun in the worker), so the buffer has a spare row, cut after.
        let size = target.width * target.height * 4, spare = target.width * 4 + 64
        var pixels = [UInt8](repeating: 255, count: size + spare)
        let status = pixels.withUnsafeMutableBufferPointer { CAV_scale_to_rgba(frame, $0.baseAddress, Int32(target.width), Int32(target.height)) }
        guard status == 0 else { throw ThumbnailError(.unsupported, "cannot convert the video frame's pixel format") }
        pixels.removeLast(spare)
        var image = PixelImage(width: target.width, height: target.height, pixels: pixels)
        if mirrored { image = image.mirrored() }
        return image.rotatedClockwise(quarterTurns: turns)
    }

    /// FFmpeg reports the display matrix as a counter-clockwise angle; players turn the picture
    /// clockwise by its negation (`-90` → a quarter turn clockwise).
    static func clockwiseQuarterTurns(fromDisplayRotation degrees: Double) -> Int {
        let clockwise = -degrees
        let turns = Int((clockwise / 90).rounded())
        return ((turns % 4) + 4) % 4
    }
}
