import ThumbnailKit

/// The frame timing of an animated PNG (APNG) or WebP, read from chunk headers only: libav
/// decodes APNG frames but knows no duration for them, and cannot read an animated WebP at all,
/// so Quick Look needs its own look at both to play them at their own pace.
public struct AnimationTiming: Sendable, Equatable {
    /// The two containers read here.
    public enum Container: Sendable { case png, webP }

    /// What a file's chunk headers say.
    public enum Reading: Sendable, Equatable {
        /// An APNG or WebP of more than one frame.
        case animation(AnimationTiming)
        /// A PNG or WebP of one frame: a still picture.
        case still
        /// Another format, or a file that cannot be read.
        case neither
    }

    public let container: Container
    /// How long each frame shows, in seconds, in order.
    public let delays: [Double]

    /// The whole animation's length in seconds.
    public var duration: Double { delays.reduce(0, +) }

    /// The frame shown at `seconds` (the last one at or after the end) and the time it starts.
    public func frame(at seconds: Double) -> (index: Int, start: Double) {
        var start = 0.0
        for (index, delay) in delays.enumerated() {
            if seconds < start + delay || index == delays.count - 1 { return (index, start) }
            start += delay
        }
        return (0, 0)
    }

    /// More frames than this are not counted (a hostile file could claim millions of tiny chunks).
    static let frameLimit = 100_000

    /// Whether `path` is an animated PNG or WebP (with its timing), a still one, or neither.
    public static func read(path: String) -> Reading {
        guard let file = try? FileBytes(path: path) else { return .neither }
        let head = file.read(at: 0, count: 16)
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return reading(.png, png(file)) }
        guard head.count >= 16, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) else { return .neither }
        return reading(.webP, Array(head[12..<16]) == Array("VP8X".utf8) ? webP(file) : [])
    }

    /// The timing of an animated PNG or WebP at `path`, nil for anything else.
    public static func of(path: String) -> AnimationTiming? {
        if case .animation(let timing) = read(path: path) { return timing }
        return nil
    }

    /// Each `fcTL` chunk starts a frame; its delay is a fraction of a second (a zero denominator
    /// means hundredths, as the APNG specification says). Without an `acTL` before the first
    /// image data the file is a still PNG.
    private static func png(_ file: FileBytes) -> [Double] {
        var offset = 8, delays: [Double] = [], animated = false
        while offset + 8 <= file.size, delays.count < frameLimit {
            let header = file.read(at: offset, count: 8)
            guard header.count == 8 else { break }
            let length = Int(bigEndian: header, at: 0, bytes: 4)
            let type = String(decoding: header[4..<8], as: UTF8.self)
            switch type {
            case "acTL": animated = true
            case "fcTL":
                let body = file.read(at: offset + 8, count: 26)
                guard body.count == 26 else { break }
                let numerator = Double(Int(bigEndian: body, at: 20, bytes: 2))
                let denominator = Double(Int(bigEndian: body, at: 22, bytes: 2))
                delays.append(numerator / (denominator == 0 ? 100 : denominator))
            case "IDAT" where !animated, "IEND": return delays
            default: break
            }
            offset += 12 + length  // length, type, data, CRC
        }
        return delays
    }

    /// An animated WebP has the animation flag in `VP8X` and one `ANMF` chunk per frame, whose
    /// delay is in milliseconds.
    private static func webP(_ file: FileBytes) -> [Double] {
        let flags = file.read(at: 20, count: 1)
        guard flags.first.map({ $0 & 0x02 != 0 }) == true else { return [] }
        var delays: [Double] = []
        WebPChunks.walk(size: file.size, read: file.read) { code, offset, _ in
            guard delays.count < frameLimit else { return false }
            guard code == "ANMF" else { return true }
            let body = file.read(at: offset, count: 16)
            guard body.count == 16 else { return false }
            delays.append(Double(Int(littleEndian: body, at: 12, bytes: 3)) / 1000)
            return true
        }
        return delays
    }

    /// Browsers show a frame without a delay for a tenth of a second; so does Quick Look.
    private static func reading(_ container: Container, _ delays: [Double]) -> Reading {
        guard delays.count > 1 else { return .still }
        return .animation(AnimationTiming(container: container, delays: delays.map { $0 > 0.01 ? $0 : 0.1 }))
    }
}

private extension Int {
    init(bigEndian bytes: [UInt8], at offset: Int, bytes count: Int) {
        self = bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    init(littleEndian bytes: [UInt8], at offset: Int, bytes count: Int) {
        self = bytes[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
