import Testing
import SystemKit
import ThumbnailKit
@testable import Providers

/// The embedded preview standing for the thumbnail (`ProviderJob.embeddedSuffices`, for `qlbrowse dbus`).
@Suite struct ImageProviderTests {
    /// A JPEG of `size` in `colour` whose EXIF IFD1 thumbnail is a JPEG of `thumbnailSize` in green.
    private func photo(_ size: PixelSize, colour: RGBA, thumbnailSize: PixelSize) -> [UInt8] {
        let main = JPEGEncoder.encode(PixelImage(width: size.width, height: size.height, filledWith: colour), quality: 90)
        let thumbnail = JPEGEncoder.encode(PixelImage(width: thumbnailSize.width, height: thumbnailSize.height, filledWith: RGBA(20, 220, 20)), quality: 90)
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xff)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }
        // IFD0 at 8 (Orientation 1), IFD1 at 26 pointing at the thumbnail, stored at 56.
        var tiff: [UInt8] = [0x4D, 0x4D] + u16(42) + u32(8)
        tiff += u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(1) + [0, 0] + u32(26)
        tiff += u16(2) + u16(0x0201) + u16(4) + u32(1) + u32(56) + u16(0x0202) + u16(4) + u32(1) + u32(thumbnail.count) + u32(0)
        tiff += thumbnail
        let app1 = Array("Exif\0\0".utf8) + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1] + u16(app1.count + 2) + app1 + main.dropFirst(2)
    }

    private func thumbnail(_ bytes: [UInt8], box: Int, embeddedSuffices: Bool) throws -> ProviderImage {
        let folder = try TemporaryFolder()
        let path = try folder.write("photo.jpg", bytes: bytes)
        let job = ProviderJob(path: path, contentType: ContentType("image/jpeg"), box: PixelSize(width: box, height: box),
                              wantsLowQuality: false, wantsThumbnail: true, wantsFacts: false, embeddedSuffices: embeddedSuffices)
        var made: [ProviderImage] = []
        try ImageProvider().makeImages(for: job) { made.append($0) }
        return try #require(made.last)
    }

    private func isGreen(_ image: PixelImage) -> Bool {
        let middle = (image.height / 2 * image.width + image.width / 2) * 4
        return image.pixels[middle + 1] > 180 && image.pixels[middle] < 80
    }

    @Test func anEXIFThumbnailFillingTheBoxIsTheThumbnailWithoutADecode() throws {
        let bytes = photo(PixelSize(width: 1600, height: 1200), colour: RGBA(20, 40, 220), thumbnailSize: PixelSize(width: 160, height: 120))
        let made = try thumbnail(bytes, box: 128, embeddedSuffices: true)
        #expect(made.type == .thumbnail && made.source == "exif" && isGreen(made.image))
        #expect(made.image.size == PixelSize(width: 128, height: 96))
        // Without the flag, and where it would have to be enlarged, the picture itself is decoded.
        let decoded = try thumbnail(bytes, box: 128, embeddedSuffices: false)
        #expect(decoded.source != "exif" && !isGreen(decoded.image))
        let larger = try thumbnail(bytes, box: 256, embeddedSuffices: true)
        #expect(larger.source != "exif" && !isGreen(larger.image) && larger.image.size == PixelSize(width: 256, height: 192))
    }

    @Test func anEXIFThumbnailWithBarsIsNotTheThumbnail() throws {
        // A 16:9 picture whose camera wrote a 4:3 thumbnail (black bars in real files).
        let bytes = photo(PixelSize(width: 1920, height: 1080), colour: RGBA(20, 40, 220), thumbnailSize: PixelSize(width: 160, height: 120))
        let made = try thumbnail(bytes, box: 128, embeddedSuffices: true)
        #expect(made.source != "exif" && !isGreen(made.image))
    }

    @Test func fillingIsJudgedInTheTurnedBox() {
        let image = PixelSize(width: 4000, height: 3000), preview = PixelSize(width: 160, height: 120)
        #expect(EmbeddedThumbnail.fills(PixelSize(width: 128, height: 128), preview: preview, image: image))
        #expect(!EmbeddedThumbnail.fills(PixelSize(width: 256, height: 256), preview: preview, image: image))
        // A tall box: shown turned (orientation 6), the 4000 px side is 160 tall in a 200x160 box.
        #expect(EmbeddedThumbnail.fills(PixelSize(width: 200, height: 160), preview: preview, image: image, orientation: 6))
        #expect(!EmbeddedThumbnail.fills(PixelSize(width: 200, height: 160), preview: preview, image: image, orientation: 1))
    }
}
