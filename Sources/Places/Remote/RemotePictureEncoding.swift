import SystemKit
import ThumbnailKit

/// How a thumbnail crosses the link from `qlbrowse serve`: a photograph's picture as JPEG (about
/// a tenth of its PNG: ~10 KB instead of ~100 KB for a 256-pixel camera photo, what makes a grid
/// fast over a home uplink), anything else as PNG, exactly. Lossy only where nobody sees the
/// loss: an opaque thumbnail (never an icon) of a photo, a camera RAW, or a video's frame. A
/// picture with transparency, a screenshot, a document's page, a drawing stays PNG.
package enum RemotePictureEncoding: String, Codable, Sendable, Equatable {
    case png
    case jpeg

    /// libjpeg's quality for photos' thumbnails: no visible loss at cell size.
    static let jpegQuality = 85

    /// Photos' types besides JPEG itself (lossy sources, or camera formats whose pictures are photos).
    private static let photoTypes: Set<String> = ["image/jpeg", "image/heic", "image/heif", "image/avif", "image/webp", "image/tiff", "image/jxl"]

    /// The encoding and bytes `picture` crosses the link in: JPEG when it is a photo's opaque
    /// thumbnail and JPEG is the smaller, else its PNG (the cache's own, when it came from there).
    package static func encode(_ picture: Representation) -> (RemotePictureEncoding, [UInt8]) {
        let png = { picture.encodedPNG ?? PNGEncoder.encode(picture.image) }
        guard picture.type != .icon, isPhoto(picture.contentType), isOpaque(picture.image) else { return (.png, png()) }
        let jpeg = JPEGEncoder.encode(picture.image, quality: jpegQuality)
        guard !jpeg.isEmpty else { return (.png, png()) }
        return (.jpeg, jpeg)
    }

    /// The picture in `bytes`, nil when they are not a picture of this encoding.
    package func decode(_ bytes: [UInt8]) -> PixelImage? {
        switch self {
        case .png: PNGDecoder.decode(bytes)
        case .jpeg: JPEGDecoder.image(bytes)
        }
    }

    /// Whether a file of `type` is a photograph or a video (whose pictures are frames of one).
    static func isPhoto(_ type: ContentType) -> Bool {
        photoTypes.contains(type.identifier) || type.kind == .rawImage || type.kind == .video
    }

    /// Whether every pixel is fully opaque (a JPEG has no alpha to keep).
    static func isOpaque(_ image: PixelImage) -> Bool {
        image.pixels.withUnsafeBufferPointer { pixels in
            var index = 3
            while index < pixels.count {
                if pixels[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }
}
