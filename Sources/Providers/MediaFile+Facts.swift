import CAV
import ThumbnailKit
import SystemKit

extension MediaFile {
    /// Duration, codec and size of a video stream, or duration, codec and tags of an audio file.
    func facts(video stream: UnsafeMutablePointer<AVStream>? = nil, audio: Bool = false) -> [FileFact] {
        var facts: [FileFact] = []
        if let stream, let parameters = stream.pointee.codecpar {
            let turns = VideoProvider.clockwiseQuarterTurns(fromDisplayRotation: CAV_stream_rotation(stream))
            var width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
            let aspect = parameters.pointee.sample_aspect_ratio
            if aspect.num > 0 && aspect.den > 0 { width = Int(saturating: (Double(width) * Double(aspect.num) / Double(aspect.den)).rounded()) }
            if turns % 2 == 1 { swap(&width, &height) }
            if width > 0 && height > 0 { facts.append(FileFact("dimensions", "\(width)×\(height)")) }
        }
        if let duration { facts.append(FileFact("duration", FileFact.duration(duration))) }
        let wanted: AVMediaType = audio ? AVMEDIA_TYPE_AUDIO : AVMEDIA_TYPE_VIDEO
        if let codec = (stream ?? streams.first { $0.pointee.codecpar.pointee.codec_type == wanted })?.pointee.codecpar.pointee.codec_id,
           let name = avcodec_get_name(codec) {
            facts.append(FileFact("codec", String(cString: name)))
        }
        if audio {
            for key in ["title", "artist", "album"] {
                if let entry = av_dict_get(context.pointee.metadata, key, nil, 0), let value = entry.pointee.value {
                    let text = String(cString: value)
                    if !text.isEmpty { facts.append(FileFact(key, text)) }
                }
            }
        }
        return facts
    }
}
