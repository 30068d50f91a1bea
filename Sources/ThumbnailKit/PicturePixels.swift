/// A picture's pixels: decoded, or a cache file's PNG that was checked and is decoded only when
/// its pixels are first read (`CheckedPNG`). Its size is known either way.
enum PicturePixels: Sendable {
    case decoded(PixelImage)
    case checked(CheckedPNG)

    var image: PixelImage {
        switch self {
        case .decoded(let image): return image
        case .checked(let png): return png.image
        }
    }

    var size: PixelSize {
        switch self {
        case .decoded(let image): return image.size
        case .checked(let png): return png.size
        }
    }
}
