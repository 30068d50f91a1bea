import Foundation
import Providers
import Testing

/// APNG and animated WebP timing from chunk headers, on files built chunk by chunk (the pixel
/// data is never read, so it need not be real).
@Suite struct AnimationTimingTests {
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private func pngChunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        bigEndian(body.count, 4) + Array(type.utf8) + body + [0, 0, 0, 0]  // the CRC is not checked
    }

    private func frameControl(_ sequence: Int, numerator: Int, denominator: Int) -> [UInt8] {
        pngChunk("fcTL", bigEndian(sequence, 4) + bigEndian(1, 4) + bigEndian(1, 4) + bigEndian(0, 4) + bigEndian(0, 4)
                 + bigEndian(numerator, 2) + bigEndian(denominator, 2) + [0, 0])
    }

    private func bigEndian(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    private func littleEndian(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    private func apng(delays: [(Int, Int)]) -> [UInt8] {
        var bytes = Self.pngSignature + pngChunk("IHDR", [UInt8](repeating: 0, count: 13)) + pngChunk("acTL", bigEndian(delays.count, 4) + bigEndian(0, 4))
        for (index, delay) in delays.enumerated() {
            bytes += frameControl(index, numerator: delay.0, denominator: delay.1)
            bytes += pngChunk(index == 0 ? "IDAT" : "fdAT", [UInt8](repeating: 7, count: 5))
        }
        return bytes + pngChunk("IEND", [])
    }

    private func webPChunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        Array(type.utf8) + littleEndian(body.count, 4) + body + (body.count % 2 == 1 ? [0] : [])
    }

    private func webP(animated: Bool, milliseconds: [Int]) -> [UInt8] {
        var chunks = webPChunk("VP8X", [animated ? 0x02 : 0, 0, 0, 0] + littleEndian(0, 3) + littleEndian(0, 3))
        if animated { chunks += webPChunk("ANIM", [0, 0, 0, 0, 0, 0]) }
        for delay in milliseconds {
            // Frame x, y, width-1, height-1 (3 bytes each), the delay (3), flags, then an odd-length frame.
            chunks += webPChunk("ANMF", [UInt8](repeating: 0, count: 12) + littleEndian(delay, 3) + [0] + webPChunk("VP8L", [1, 2, 3]))
        }
        return Array("RIFF".utf8) + littleEndian(chunks.count + 4, 4) + Array("WEBP".utf8) + chunks
    }

    @Test func anAPNGIsTimedByItsFrameControls() throws {
        let folder = try TemporaryFolder()
        // 1/2 s, 250/1000 s, and 3/0, which the APNG specification reads as 3/100 s.
        let path = try folder.write("dance.png", bytes: apng(delays: [(1, 2), (250, 1000), (3, 0)]))
        let timing = try #require(AnimationTiming.of(path: path))
        #expect(timing.container == .png && timing.delays == [0.5, 0.25, 0.03])
        #expect(abs(timing.duration - 0.78) < 1e-9)
    }

    @Test func anAnimatedWebPIsTimedByItsFrames() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("dance.webp", bytes: webP(animated: true, milliseconds: [500, 500, 0]))
        let timing = try #require(AnimationTiming.of(path: path))
        #expect(timing.container == .webP && timing.delays == [0.5, 0.5, 0.1], "a frame without a delay shows for a tenth of a second")
        #expect(timing.frame(at: 0) == (0, 0) && timing.frame(at: 0.7) == (1, 0.5) && timing.frame(at: 1.05) == (2, 1.0))
        #expect(timing.frame(at: 9) == (2, 1.0), "past the end: the last frame")
    }

    @Test func stillPicturesAndOtherFilesAreNotAnimations() throws {
        let folder = try TemporaryFolder()
        let stillPNG = Self.pngSignature + pngChunk("IHDR", [UInt8](repeating: 0, count: 13)) + pngChunk("IDAT", [1, 2]) + pngChunk("IEND", [])
        #expect(AnimationTiming.read(path: try folder.write("still.png", bytes: stillPNG)) == .still)
        #expect(AnimationTiming.read(path: try folder.write("one.png", bytes: apng(delays: [(1, 2)]))) == .still, "one frame is a still")
        #expect(AnimationTiming.read(path: try folder.write("still.webp", bytes: webP(animated: false, milliseconds: []))) == .still)
        #expect(AnimationTiming.read(path: try folder.write("photo.jpg", bytes: [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 40))) == .neither)
        #expect(AnimationTiming.read(path: folder.path + "/missing.png") == .neither)
    }

    @Test func damagedHeadersGiveWhatWasReadAndNeverLoop() throws {
        let folder = try TemporaryFolder()
        let whole = apng(delays: [(1, 10), (1, 10), (1, 10)])
        // Cut inside the third frame's control chunk: two frames were read.
        let cut = Array(whole.prefix(whole.count - pngChunk("IEND", []).count - pngChunk("fdAT", [7, 7, 7, 7, 7]).count - 10))
        #expect(AnimationTiming.of(path: try folder.write("cut.png", bytes: cut))?.delays.count == 2)
        // A chunk claiming 4 GB: the walk ends at the end of the file.
        var huge = Self.pngSignature + pngChunk("acTL", bigEndian(2, 4) + bigEndian(0, 4))
        huge += bigEndian(0xFFFF_FFFF, 4) + Array("zzzz".utf8)
        #expect(AnimationTiming.read(path: try folder.write("huge.png", bytes: huge)) == .still)
    }
}
