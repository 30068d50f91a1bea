import Synchronization

/// A cached thumbnail's PNG, checked (`PNGDecoder.check`) but decoded only when its pixels are
/// first asked for: `thumbnail -o` copies the file it was read from and reads only its size, so a
/// cached call does not decode and unfilter 200 KB of pixels it never looks at.
final class CheckedPNG: Sendable {
    let size: PixelSize
    private let png: [UInt8]
    private let decoded = Mutex<PixelImage?>(nil)

    /// Nil when the bytes are not a PNG that `PNGDecoder.decode` reads.
    init?(_ png: [UInt8]) {
        guard let info = PNGDecoder.check(png) else { return nil }
        self.png = png
        size = PixelSize(width: info.width, height: info.height)
    }

    /// The pixels, decoded at the first call.
    var image: PixelImage {
        decoded.withLock { image in
            if let image { return image }
            // `check` made every test `decode` makes: the same bytes cannot fail now.
            guard let made = PNGDecoder.decode(png) else { preconditionFailure("a checked PNG did not decode") }
            image = made
            return made
        }
    }
}
