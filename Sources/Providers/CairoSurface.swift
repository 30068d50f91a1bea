import CCairo
import ThumbnailKit

/// A cairo image surface painted white, and its conversion to a `PixelImage`
/// (cairo stores premultiplied BGRA in native-endian words).
final class CairoSurface {
    let surface: OpaquePointer
    let context: OpaquePointer
    let size: PixelSize

    init(size: PixelSize, background: RGBA = .white) throws(ThumbnailError) {
        guard size.width > 0, size.height > 0, size.width <= 16384, size.height <= 16384,
              let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height)) else {
            throw ThumbnailError(.tooLarge, "cannot make a \(size) drawing surface")
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            throw ThumbnailError(.tooLarge, "cannot make a \(size) drawing surface")
        }
        self.surface = surface
        self.context = context
        self.size = size
        cairo_set_source_rgba(context, Double(background.red) / 255, Double(background.green) / 255, Double(background.blue) / 255, Double(background.alpha) / 255)
        cairo_paint(context)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    func pixelImage() -> PixelImage {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else {
            return PixelImage(width: size.width, height: size.height, filledWith: .white)
        }
        var out = [UInt8](repeating: 0, count: size.width * size.height * 4)
        for y in 0..<size.height {
            let row = data.advanced(by: y * stride).withMemoryRebound(to: UInt32.self, capacity: size.width) { $0 }
            for x in 0..<size.width {
                let word = row[x]
                let alpha = Int(word >> 24)
                var red = Int((word >> 16) & 0xff), green = Int((word >> 8) & 0xff), blue = Int(word & 0xff)
                if alpha > 0 && alpha < 255 {
                    red = min(255, red * 255 / alpha)
                    green = min(255, green * 255 / alpha)
                    blue = min(255, blue * 255 / alpha)
                }
                let offset = (y * size.width + x) * 4
                out[offset] = UInt8(red)
                out[offset + 1] = UInt8(green)
                out[offset + 2] = UInt8(blue)
                out[offset + 3] = UInt8(alpha)
            }
        }
        return PixelImage(width: size.width, height: size.height, pixels: out)
    }
}
