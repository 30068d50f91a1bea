import Foundation
import Testing
import ThumbnailKit
@testable import Providers

@Suite struct JPEGDecoderTests {
    /// 640x480, the top quarter red and the rest blue: where the red lands tells the orientation.
    private func picture() -> [UInt8] {
        var image = PixelImage(width: 640, height: 480, filledWith: RGBA(20, 40, 220))
        for y in 0..<120 {
            for x in 0..<640 { image.pixels.replaceSubrange((y * 640 + x) * 4..<(y * 640 + x) * 4 + 4, with: [230, 20, 20, 255]) }
        }
        return JPEGEncoder.encode(image, quality: 90)
    }

    /// The same JPEG with an EXIF APP1 carrying only an Orientation tag.
    private func withOrientation(_ orientation: UInt8, _ jpeg: [UInt8]) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]
        let app1 = Array("Exif\0\0".utf8) + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xff)] + app1 + jpeg.dropFirst(2)
    }

    private func decode(_ bytes: [UInt8], box: Int, cancellation: CancellationFlag = CancellationFlag()) throws -> JPEGDecoder.Outcome {
        let folder = try TemporaryFolder()
        let path = try folder.write("picture.jpg", bytes: bytes)
        // The orientation as ImageProvider reads it from the header.
        let orientation = JPEGMetadata.parse(header: bytes, fileSize: bytes.count)?.orientation ?? 1
        return try JPEGDecoder.thumbnail(path: path, box: PixelSize(width: box, height: box), orientation: orientation, cancel: cancellation.cFlag)
    }

    private func image(_ outcome: JPEGDecoder.Outcome) -> PixelImage? {
        if case .image(let image) = outcome { return image }
        return nil
    }

    private func isRed(_ image: PixelImage, _ x: Int, _ y: Int) -> Bool {
        let offset = (y * image.width + x) * 4
        return image.pixels[offset] > 180 && image.pixels[offset + 2] < 80
    }

    @Test func aBaselineJPEGIsScaledToFitTheBox() throws {
        let thumbnail = try #require(image(try decode(picture(), box: 64)))
        #expect(thumbnail.size == PixelSize(width: 64, height: 48))
        #expect(isRed(thumbnail, 32, 2) && !isRed(thumbnail, 32, 40))
    }

    @Test func aSmallPictureIsNotEnlarged() throws {
        let thumbnail = try #require(image(try decode(picture(), box: 1024)))
        #expect(thumbnail.size == PixelSize(width: 640, height: 480))
    }

    @Test func theEXIFOrientationIsApplied() throws {
        // 6: rotate 90° clockwise to display, so the red top edge ends on the right.
        let thumbnail = try #require(image(try decode(withOrientation(6, picture()), box: 64)))
        #expect(thumbnail.size == PixelSize(width: 48, height: 64))
        #expect(isRed(thumbnail, 46, 32) && !isRed(thumbnail, 2, 32))
    }

    @Test func aTruncatedJPEGStillGivesWhatWasThere() throws {
        let whole = picture()
        let thumbnail = try #require(image(try decode(Array(whole.prefix(whole.count / 2)), box: 64)))
        #expect(thumbnail.size == PixelSize(width: 64, height: 48))
        #expect(isRed(thumbnail, 32, 2))
    }

    @Test func whatItCannotReadIsLeftToLibvips() throws {
        let png = PNGEncoder.encode(PixelImage(width: 8, height: 8, filledWith: .white))
        #expect(image(try decode(png, box: 64)) == nil)
        #expect(image(try decode([0xFF, 0xD8, 0xFF, 0xC0, 0, 3, 0], box: 64)) == nil)
    }

    @Test func aPictureTooLargeEvenScaledIsLeftToLibvips() throws {
        // The header says 40000x40000: at 1/8 that is still 25 megapixels, more than this decoder holds.
        var bytes = picture()
        let frame = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange((frame + 5)..<(frame + 9), with: [0x9C, 0x40, 0x9C, 0x40])
        #expect(image(try decode(bytes, box: 256)) == nil)
    }

    @Test func aCancelledDecodeStops() throws {
        let cancelled = CancellationFlag()
        cancelled.cancel()
        #expect(throws: ThumbnailError.self) { try decode(picture(), box: 64, cancellation: cancelled) }
    }

    @Test func aMissingFileIsUnreadable() {
        let error = #expect(throws: ThumbnailError.self) {
            try JPEGDecoder.thumbnail(path: "/nonexistent/qlbrowse.jpg", box: PixelSize(width: 64, height: 64), orientation: 1, cancel: nil)
        }
        #expect(error?.code == .unreadable)
    }
}
