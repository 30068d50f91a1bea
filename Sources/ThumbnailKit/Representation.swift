import SystemKit
/// One picture of a file, as the generator hands it out: what quality it is, its pixels, and
/// where it came from (for the user's curiosity and for debugging: `exif`, `vips`, `libav`, …).
public struct Representation: Sendable {
    public let type: RepresentationType
    /// The pixels (a cached picture's are decoded when first asked for; see `pixelSize`).
    public var image: PixelImage { pixels.image }
    /// The picture's size, known without decoding it.
    public var pixelSize: PixelSize { pixels.size }
    private let pixels: PicturePixels
    /// Where the picture's content sits inside `image` (the whole image for every built-in provider).
    public let contentRect: PixelRect
    /// The decoder or source that produced it.
    public let source: String
    /// The file's content type as the engine determined it.
    public let contentType: ContentType
    /// The picture already encoded as PNG (with the cache's text keys), when the cache wrote it or
    /// it was read from a cache file at this size.
    public var encodedPNG: [UInt8]?
    /// What the decoder learned about the file (empty for icons; a cached picture carries the
    /// facts stored with it).
    public var facts: [FileFact] = []
    /// A cached picture stored without facts (made by a request that did not want them): the
    /// generator decodes again when a request wants them.
    public var lacksFacts = false
    /// Why the picture, freshly made, could not be kept in the cache (a full disk, a read-only
    /// cache folder); nil when it was kept or there is no cache. Batch and command-line callers
    /// count it as a failure: the next run would have to make it again.
    public var notStored: ThumbnailError?

    public init(type: RepresentationType, image: PixelImage, source: String, contentType: ContentType, contentRect: PixelRect? = nil) {
        self.type = type
        self.pixels = .decoded(image)
        self.source = source
        self.contentType = contentType
        self.contentRect = contentRect ?? PixelRect(x: 0, y: 0, width: image.width, height: image.height)
    }

    /// A cache file's picture, decoded only if its pixels are read; its `encodedPNG` is the file.
    init(type: RepresentationType, checked png: CheckedPNG, encoded: [UInt8], source: String, contentType: ContentType) {
        self.type = type
        self.pixels = .checked(png)
        self.source = source
        self.contentType = contentType
        self.contentRect = PixelRect(x: 0, y: 0, width: png.size.width, height: png.size.height)
        self.encodedPNG = encoded
    }
}

/// A rectangle in pixels.
public struct PixelRect: Sendable, Equatable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// As ImageMagick and jpegtran write a crop: "WxH+X+Y".
    public var geometry: String { "\(width)x\(height)+\(x)+\(y)" }

    /// "WxH+X+Y" read back; nil when it is not one.
    public init?(geometry text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        let size = parts.first?.lowercased().split(separator: "x", omittingEmptySubsequences: false) ?? []
        guard parts.count == 3, size.count == 2, let width = Int(size[0]), let height = Int(size[1]), let x = Int(parts[1]), let y = Int(parts[2]),
              width > 0, height > 0, x >= 0, y >= 0 else { return nil }
        self.init(x: x, y: y, width: width, height: height)
    }
}
