import SystemKit
import CVips
import Providers
import ThumbnailKit

/// Turns a picture that is not a JPEG (PNG, WebP, TIFF, HEIC, AVIF…): decoded by libvips, turned
/// upright by its EXIF orientation, turned, and written in its own format without loss (PNG and
/// TIFF are lossless; WebP, HEIC and AVIF are written lossless), metadata kept.
enum PictureRotator {
    static func rotate(_ turn: PictureTurn, input: String, output: String) throws(ThumbnailError) -> FileEditResult {
        try VipsDecoder.start()
        guard let source = CVips_open(input) else { throw VipsDecoder.failure("cannot open the picture") }
        defer { CVips_unref(source) }
        var upright: UnsafeMutablePointer<VipsImage>?
        guard CVips_autorot(source, &upright) == 0, let upright else { throw VipsDecoder.failure("cannot read the picture") }
        defer { CVips_unref(upright) }
        let (quarterTurns, flip) = turn.quarterTurnsAndFlip
        var current = upright
        var owned: [UnsafeMutablePointer<VipsImage>] = []
        defer { owned.forEach { CVips_unref($0) } }
        if flip {
            var mirrored: UnsafeMutablePointer<VipsImage>?
            guard CVips_flip_horizontal(current, &mirrored) == 0, let mirrored else { throw VipsDecoder.failure("cannot mirror the picture") }
            owned.append(mirrored)
            current = mirrored
        }
        if quarterTurns != 0 {
            var turned: UnsafeMutablePointer<VipsImage>?
            guard CVips_rot(current, &turned, Int32(quarterTurns)) == 0, let turned else { throw VipsDecoder.failure("cannot turn the picture") }
            owned.append(turned)
            current = turned
        }
        let suffix = output.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let options = ["webp", "heic", "heif", "avif"].contains(suffix) ? "[lossless]" : ""
        guard CVips_write(current, output + options) == 0 else { throw VipsDecoder.failure("cannot write the turned picture") }
        try EditOutput.flush(path: output)
        return FileEditResult(width: Int(CVips_width(current)), height: Int(CVips_height(current)))
    }
}
