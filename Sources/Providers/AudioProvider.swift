import CAV
import ThumbnailKit
import SystemKit

/// Audio files: the embedded cover art (ID3 APIC, FLAC PICTURE, MP4 `covr`, which libavformat
/// exposes as attached pictures); without art, a waveform drawn from the decoded sound.
public struct AudioProvider: ThumbnailProvider {
    public let name = "cover"

    /// Longest stretch of audio decoded for a waveform.
    static let maximumSeconds = 600.0

    public init() {}

    public func makeImages(for job: ProviderJob, emit: (ProviderImage) -> Void) throws(ThumbnailError) {
        let media = try MediaFile(path: job.path)
        if let cover = media.streams.first(where: { CAV_is_attached_pic($0) != 0 && $0.pointee.attached_pic.size > 0 }) {
            let packet = cover.pointee.attached_pic
            let bytes = [UInt8](UnsafeBufferPointer(start: packet.data, count: Int(packet.size)))
            if let image = try? VipsDecoder.thumbnail(bytes: bytes, box: job.box, cancellation: job.cancellation) {
                // Cover art is both the cheap and the best picture.
                emit(ProviderImage(job.wantsThumbnail ? .thumbnail : .lowQuality, image, source: name, facts: media.facts(audio: true)))
                return
            }
        }
        guard job.wantsThumbnail else { return }
        guard let stream = media.streams.first(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }) else {
            throw ThumbnailError(.unsupported, "the file has no audio stream and no cover art")
        }
        let peaks = try decodePeaks(media: media, stream: stream, columns: max(16, job.box.width), cancellation: job.cancellation)
        guard !peaks.isEmpty else { throw ThumbnailError(.corrupt, "no audio could be decoded") }
        let height = max(8, job.box.height * 2 / 5)
        emit(ProviderImage(.thumbnail, WaveformRenderer.render(peaks: peaks, size: PixelSize(width: job.box.width, height: min(height, job.box.height))),
                           source: "waveform", facts: media.facts(audio: true)))
    }

    /// The loudest sample per column over the decoded audio.
    private func decodePeaks(media: MediaFile, stream: UnsafeMutablePointer<AVStream>, columns: Int, cancellation: CancellationFlag) throws(ThumbnailError) -> [Float] {
        let decoder = try media.decoder(for: stream)
        let rate = Double(max(1, decoder.codec.pointee.sample_rate))
        let expectedSeconds = min(media.duration ?? 30, Self.maximumSeconds)
        let samplesPerColumn = max(1, Int(saturating: expectedSeconds * rate) / columns)
        var peaks: [Float] = []
        var current: Float = 0
        var inColumn = 0
        var total = 0
        let limit = Int(Self.maximumSeconds * rate)
        guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else { return [] }
        defer {
            var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p)
            var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f)
        }
        var endOfFile = false
        var failures = 0
        while total < limit {
            try cancellation.check()
            if !endOfFile {
                if av_read_frame(media.context, packet) < 0 {
                    endOfFile = true
                    avcodec_send_packet(decoder.codec, nil)
                } else {
                    defer { av_packet_unref(packet) }
                    if packet.pointee.stream_index != stream.pointee.index { continue }
                    if avcodec_send_packet(decoder.codec, packet) < 0 { failures += 1; if failures > 100 { break } }
                }
            }
            var received = false
            while avcodec_receive_frame(decoder.codec, frame) >= 0 {
                received = true
                let channels = Int(CAV_frame_channels(frame))
                for index in 0..<Int(frame.pointee.nb_samples) {
                    var loudest: Float = 0
                    for channel in 0..<max(1, channels) { loudest = max(loudest, abs(CAV_sample(frame, Int32(channel), Int32(index)))) }
                    current = max(current, loudest.isFinite ? min(loudest, 1) : 0)
                    inColumn += 1
                    if inColumn == samplesPerColumn {
                        peaks.append(current)
                        current = 0
                        inColumn = 0
                    }
                }
                total += Int(frame.pointee.nb_samples)
                av_frame_unref(frame)
            }
            if endOfFile && !received { break }
        }
        if inColumn > 0 { peaks.append(current) }
        return WaveformRenderer.resample(peaks, to: columns)
    }
}
