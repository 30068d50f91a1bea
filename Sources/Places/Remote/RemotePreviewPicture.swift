import ThumbnailKit

/// How a Quick Look preview's picture crosses the link: the worker's raw RGBA (a full-screen
/// page is megabytes) is sent as PNG by the remote and made pixels again here, checked against
/// the size the answer declares.
package enum RemotePreviewPicture {
    /// The size of the picture `answer` carries in its payload, nil when it carries none.
    package static func size(of answer: WorkerAnswer) -> PixelSize? {
        switch answer {
        case .page(let page): page.size
        case .frame(let frame): frame.size
        case .region(let region): region.size
        case .custom(let custom): custom?.size
        default: nil
        }
    }

    /// The payload to send for a worker's reply, and whether it is PNG.
    package static func pack(_ answer: WorkerAnswer, _ payload: [UInt8]) -> (payload: [UInt8], png: Bool) {
        guard let size = size(of: answer), size.width > 0, size.height > 0, payload.count == size.width * size.height * 4 else { return (payload, false) }
        return (PNGEncoder.encode(PixelImage(width: size.width, height: size.height, pixels: payload)), true)
    }

    /// The worker's payload again from what crossed; nil when a PNG does not hold the declared picture.
    package static func unpack(_ answer: WorkerAnswer, _ payload: [UInt8], png: Bool) -> [UInt8]? {
        guard png else { return payload }
        guard let size = size(of: answer), let image = PNGDecoder.decode(payload), image.size == size else { return nil }
        return image.pixels
    }

    /// A thumbnail's payload: JPEG for an opaque picture that is not an icon (a photo's
    /// thumbnail is several times smaller so: 24 grid photos at 256 px, about 3 MB as PNG), else
    /// the PNG the cache holds. Whether it is JPEG.
    package static func packThumbnail(_ picture: Representation) -> (payload: [UInt8], jpeg: Bool) {
        if picture.type != .icon, isOpaque(picture.image) { return (JPEGEncoder.encode(picture.image, quality: 85), true) }
        return (picture.encodedPNG ?? PNGEncoder.encode(picture.image), false)
    }

    /// A thumbnail's picture from its payload.
    package static func unpackThumbnail(_ payload: [UInt8], jpeg: Bool) -> PixelImage? {
        jpeg ? JPEGMemoryDecoder.decode(payload) : PNGDecoder.decode(payload)
    }

    private static func isOpaque(_ image: PixelImage) -> Bool {
        guard image.width > 0, image.height > 0 else { return false }
        return stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 }
    }
}
