@testable import Places
import SystemKit
import Testing
import ThumbnailKit

/// How a remote place's pictures cross the link: a photo's opaque thumbnail as JPEG (much smaller,
/// close to the original), anything with transparency, an icon or a non-photo's picture as PNG,
/// exactly as made.
@Suite struct RemotePictureEncodingTests {
    /// A photo-like picture: smooth gradients with some texture, opaque.
    static func photo(width: Int = 256, height: Int = 192, alpha: UInt8 = 255) -> PixelImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var noise: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                noise = noise &* 1_103_515_245 &+ 12345
                let grain = Int((noise >> 16) & 15)
                let index = (y * width + x) * 4
                pixels[index] = UInt8(min(255, x * 255 / width + grain))
                pixels[index + 1] = UInt8(min(255, y * 255 / height + grain))
                pixels[index + 2] = UInt8(min(255, (x + y) * 128 / (width + height) + 60 + grain))
                pixels[index + 3] = x < width / 2 ? alpha : 255
            }
        }
        return PixelImage(width: width, height: height, pixels: pixels)
    }

    static func picture(_ image: PixelImage, type: RepresentationType = .thumbnail, contentType: String = "image/jpeg") -> Representation {
        Representation(type: type, image: image, source: "test", contentType: ContentType(contentType))
    }

    @Test func aPhotosThumbnailCrossesAsAMuchSmallerJPEGCloseToIt() throws {
        let image = Self.photo()
        let (encoding, bytes) = RemotePictureEncoding.encode(Self.picture(image))
        #expect(encoding == .jpeg)
        let png = PNGEncoder.encode(image)
        #expect(bytes.count * 3 < png.count, "JPEG \(bytes.count) bytes, PNG \(png.count)")
        let decoded = try #require(encoding.decode(bytes))
        #expect(decoded.width == image.width && decoded.height == image.height)
        var total = 0
        for index in image.pixels.indices where index % 4 != 3 { total += abs(Int(decoded.pixels[index]) - Int(image.pixels[index])) }
        let mean = Double(total) / Double(image.width * image.height * 3)
        #expect(mean < 4, "mean difference \(mean) per channel")
    }

    @Test func transparencyIconsAndOtherPicturesStayPNGExactly() throws {
        let cases: [Representation] = [
            Self.picture(Self.photo(alpha: 128)),  // a photo's picture with transparency
            Self.picture(Self.photo(), type: .icon),
            Self.picture(Self.photo(), contentType: "image/png"),  // a screenshot
            Self.picture(Self.photo(), contentType: "application/pdf"),
        ]
        for picture in cases {
            let (encoding, bytes) = RemotePictureEncoding.encode(picture)
            #expect(encoding == .png, "\(picture.type) \(picture.contentType)")
            #expect(encoding.decode(bytes) == picture.image)
        }
        // A video's frame and a camera RAW's preview are photos too.
        #expect(RemotePictureEncoding.encode(Self.picture(Self.photo(), contentType: "video/mp4")).0 == .jpeg)
        #expect(RemotePictureEncoding.encode(Self.picture(Self.photo(), contentType: "image/x-canon-cr2")).0 == .jpeg)
    }

    @Test func bytesThatAreNotAPictureDecodeToNothing() {
        #expect(RemotePictureEncoding.jpeg.decode([1, 2, 3]) == nil)
        #expect(RemotePictureEncoding.png.decode([0xFF, 0xD8, 0xFF]) == nil)
    }
}
