import BrowserCore
import ThumbnailKit

/// A rectangle drawn into a picture before it goes to the terminal: outside it dimmed, its edge
/// a light line with a dark line beside it, so that it shows on any photo and in every graphics
/// mode (sixel, kitty, symbols) alike. Quick Look's crop draws its rectangle so; markup's boxes
/// can too.
struct RectangleOverlay: Sendable, Equatable, CustomStringConvertible {
    /// In pixels of the full picture as shown.
    let rect: PixelRect
    /// The full picture's size, which `rect` is measured in.
    let size: PixelSize

    var description: String { "rect\(rect.geometry)of\(size.width)x\(size.height)" }

    /// The picture (of any size: a thumbnail of the full one) with the rectangle drawn in.
    func applied(to image: PixelImage) -> PixelImage {
        guard image.width > 0, image.height > 0, size.width > 0, size.height > 0 else { return image }
        let scaleX = Double(image.width) / Double(size.width), scaleY = Double(image.height) / Double(size.height)
        let left = Int((Double(rect.x) * scaleX).rounded()), top = Int((Double(rect.y) * scaleY).rounded())
        let right = max(left + 1, Int((Double(rect.x + rect.width) * scaleX).rounded()))
        let bottom = max(top + 1, Int((Double(rect.y + rect.height) * scaleY).rounded()))
        // The line is about a two-hundredth of the picture, at least one pixel.
        let line = max(1, min(image.width, image.height) / 200)
        var pixels = image.pixels
        for y in 0..<image.height {
            for x in 0..<image.width {
                let inside = x >= left && x < right && y >= top && y < bottom
                let nearEdge = x >= left - line && x < right + line && y >= top - line && y < bottom + line
                let offset = (y * image.width + x) * 4
                if inside {
                    let edge = x < left + line || x >= right - line || y < top + line || y >= bottom - line
                    if edge { (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (255, 255, 255) }
                } else if nearEdge {
                    (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (0, 0, 0)
                } else {
                    for channel in 0..<3 { pixels[offset + channel] = UInt8(Int(pixels[offset + channel]) * 2 / 5) }
                }
            }
        }
        return PixelImage(width: image.width, height: image.height, pixels: pixels)
    }
}
