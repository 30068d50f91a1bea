import Foundation
import SystemKit
import Testing
@testable import ThumbnailKit

/// A cached picture that a call only saves (`thumbnail -o`) is checked without being decoded:
/// `PNGDecoder.check` must take exactly the files `decode` reads, so that such a call misses on
/// the same broken cache files as before and can decode a checked one whenever it is read.
@Suite struct CheckedPNGTests {
    /// A picture with distinct neighbours (so that every filter byte matters), opaque or not.
    private func picture(width: Int, height: Int, opaque: Bool) -> PixelImage {
        var pixels: [UInt8] = []
        for index in 0..<(width * height) {
            pixels += [UInt8(index * 7 % 256), UInt8(index * 13 % 256), UInt8(index * 29 % 256), opaque ? 255 : UInt8(254 - index % 200)]
        }
        return PixelImage(width: width, height: height, pixels: pixels)
    }

    /// The PNG with its pixel data (inflated) changed by `edit`, deflated again and every CRC right.
    private func rewritingPixels(_ png: [UInt8], _ edit: (inout [UInt8]) -> Void) throws -> [UInt8] {
        let info = try #require(PNGDecoder.info(png))
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][info.colorType]!
        var out = Array(png.prefix(8))
        var position = 8
        while position + 12 <= png.count {
            let length = Int(png[position]) << 24 | Int(png[position + 1]) << 16 | Int(png[position + 2]) << 8 | Int(png[position + 3])
            let type = String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self)
            var data = Array(png[(position + 8)..<(position + 8 + length)])
            if type == "IDAT" {
                var raw = try #require(PNGDecoder.inflate(data, expected: (info.width * channels + 1) * info.height))
                edit(&raw)
                data = PNGEncoder.deflate(raw, level: 1)
            }
            PNGEncoder.appendChunk(type, data, to: &out)
            position += 12 + length
        }
        return out
    }

    @Test(arguments: [(1, 1), (1, 3), (2, 2), (7, 5), (64, 3)])
    func theEncodersRowsReadBackExactly(width: Int, height: Int) {
        for opaque in [true, false] {
            let image = picture(width: width, height: height, opaque: opaque)
            // Opaque: written as RGB (the cache's way), else RGBA.
            let png = PNGEncoder.encode(image, opaqueAsRGB: true)
            #expect(PNGDecoder.info(png)?.colorType == (opaque ? 2 : 6))
            #expect(PNGDecoder.decode(png) == image, "\(width)x\(height) opaque: \(opaque)")
        }
    }

    @Test func checkTakesExactlyWhatDecodeReads() throws {
        let good = PNGEncoder.encode(picture(width: 9, height: 4, opaque: true), opaqueAsRGB: true)
        let alpha = PNGEncoder.encode(picture(width: 9, height: 4, opaque: false))
        let badFilter = try rewritingPixels(good) { $0[0] = 5 }
        let lastRowBadFilter = try rewritingPixels(alpha) { $0[3 * (9 * 4 + 1)] = 9 }
        let short = try rewritingPixels(good) { $0.removeLast() }
        let long = try rewritingPixels(good) { $0.append(0) }
        var flipped = good
        flipped[flipped.count - 20] ^= 0x40  // inside IDAT: its CRC no longer matches
        for (name, png, reads) in [("RGB", good, true), ("RGBA", alpha, true), ("filter 5", badFilter, false),
                                   ("last row's filter 9", lastRowBadFilter, false), ("a byte short", short, false),
                                   ("a byte long", long, false), ("a flipped bit", flipped, false)] {
            #expect((PNGDecoder.decode(png) != nil) == reads, "\(name)")
            #expect((PNGDecoder.check(png) != nil) == reads, "\(name)")
        }
        let checked = try #require(CheckedPNG(good))
        #expect(checked.size == PixelSize(width: 9, height: 4))
        #expect(checked.image == PNGDecoder.decode(good), "decoded when first read")
        #expect(CheckedPNG(badFilter) == nil)
    }

    @Test func aCallThatOnlySavesGetsTheFileUndecodedAndMissesOnABrokenOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qlbrowse-checked-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/a.pdf"
        FileManager.default.createFile(atPath: file, contents: Data("%PDF".utf8))
        let box = PixelSize(width: 256, height: 256)
        let image = picture(width: 198, height: 256, opaque: true)
        try ThumbnailCache(root: folder + "/thumbnails").store(Representation(type: .thumbnail, image: image, source: "poppler", contentType: ContentType("application/pdf")),
                                                                for: ThumbnailRequest(path: file), box: box)
        var request = ThumbnailRequest(path: file, types: [.thumbnail])
        request.onlySavesPNG = true
        let cache = ThumbnailCache(root: folder + "/thumbnails")
        let entry = cache.path(forFile: file, flavor: .large)
        let stored = try [UInt8](#require(FileManager.default.contents(atPath: entry)))
        let found = try #require(cache.cachedRepresentation(for: request, box: box))
        #expect(found.encodedPNG == stored)
        #expect(found.pixelSize == image.size)
        #expect(found.source == "cache" && found.contentType.identifier == "application/pdf")
        #expect(found.image == image, "its pixels, decoded when read")
        // A smaller box needs the pixels: decoded, fitted, no file to copy.
        let smaller = try #require(cache.cachedRepresentation(for: request, box: PixelSize(width: 200, height: 200)))
        #expect(smaller.pixelSize.height == 200 && smaller.image.size == smaller.pixelSize && smaller.encodedPNG == nil)
        // Pixel data that does not decode, every CRC right: a miss, as when the picture was decoded.
        try Data(rewritingPixels(stored) { $0[0] = 6 }).write(to: URL(fileURLWithPath: entry))
        #expect(ThumbnailCache(root: folder + "/thumbnails").cachedRepresentation(for: request, box: box) == nil)
        request.onlySavesPNG = false
        #expect(ThumbnailCache(root: folder + "/thumbnails").cachedRepresentation(for: request, box: box) == nil)
    }
}
