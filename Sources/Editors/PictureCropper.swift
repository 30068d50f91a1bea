import CVips
import SystemKit
import Providers
import ThumbnailKit

/// Crops a picture that is not a JPEG: decoded by libvips, turned upright by its EXIF
/// orientation, cut, and written in its own format. PNG and TIFF are lossless; WebP is written
/// lossless; HEIC and AVIF have no lossless writer worth the name here (libheif's lossless
/// output is many times the size and not what the camera made), so they are written with loss,
/// at quality 90, only when the caller allows it.
enum PictureCropper {
    static let lossyFormats: Set<String> = ["heic", "heif", "avif"]

    static func crop(_ rect: PixelRect, allowLossy: Bool, input: String, output: String) throws(ThumbnailError) -> FileEditResult {
        let suffix = output.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if lossyFormats.contains(suffix), !allowLossy {
            throw ThumbnailError(.unsupported, "a \(suffix.uppercased()) picture can only be cropped by encoding it again, with some loss of quality; allow that to go on")
        }
        try VipsDecoder.start()
        guard let source = CVips_open(input) else { throw VipsDecoder.failure("cannot open the picture") }
        defer { CVips_unref(source) }
        var upright: UnsafeMutablePointer<VipsImage>?
        guard CVips_autorot(source, &upright) == 0, let upright else { throw VipsDecoder.failure("cannot read the picture") }
        defer { CVips_unref(upright) }
        try check(rect, width: Int(CVips_width(upright)), height: Int(CVips_height(upright)))
        var cut: UnsafeMutablePointer<VipsImage>?
        guard CVips_extract_area(upright, &cut, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height)) == 0, let cut else {
            throw VipsDecoder.failure("cannot crop the picture")
        }
        defer { CVips_unref(cut) }
        let options = suffix == "webp" ? "[lossless]" : lossyFormats.contains(suffix) ? "[Q=90]" : ""
        guard CVips_write(cut, output + options) == 0 else { throw VipsDecoder.failure("cannot write the cropped picture") }
        try EditOutput.flush(path: output)
        let notes = lossyFormats.contains(suffix) ? ["encoded again as \(suffix.uppercased()) at quality 90: not lossless"] : []
        return FileEditResult(notes: notes, width: rect.width, height: rect.height, rect: rect)
    }

    /// A rectangle that is not all inside the picture is refused, with the picture's size.
    static func check(_ rect: PixelRect, width: Int, height: Int) throws(ThumbnailError) {
        guard rect.width > 0, rect.height > 0, rect.x >= 0, rect.y >= 0, rect.x + rect.width <= width, rect.y + rect.height <= height else {
            throw ThumbnailError(.unsupported, "the rectangle \(rect.geometry) is not inside the picture, which is \(width)×\(height)")
        }
    }
}
