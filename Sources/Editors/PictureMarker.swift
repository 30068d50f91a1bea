import SystemKit
import CCairo
import CVips
import Providers
import ThumbnailKit

/// Markup on a picture: the marks drawn by cairo on a transparent layer at the picture's full
/// size, laid over it by libvips, and the picture written again in its own format. The picture is
/// first turned upright by its EXIF orientation (the marks are placed as shown), and pixels the
/// marks do not cover keep their values. PNG, TIFF and WebP/HEIC/AVIF (written lossless) lose
/// nothing; a JPEG is encoded again at its own quality, which is not lossless (DECISIONS.md).
enum PictureMarker {
    /// Above this a layer alone would take more than a gigabyte.
    static let maximumPixels = 250_000_000

    static func draw(_ marks: [Mark], input: String, output: String) throws(ThumbnailError) -> FileEditResult {
        guard !marks.isEmpty else { throw ThumbnailError(.unsupported, "no marks to draw") }
        if let problem = marks.lazy.compactMap(\.problem).first { throw ThumbnailError(.unsupported, problem) }
        if marks.contains(where: { $0.page != 0 }) { throw ThumbnailError(.unsupported, "a picture has one page: marks go on page 1") }
        try VipsDecoder.start()
        guard let source = CVips_open(input) else { throw VipsDecoder.failure("cannot open the picture") }
        defer { CVips_unref(source) }
        var upright: UnsafeMutablePointer<VipsImage>?
        guard CVips_autorot(source, &upright) == 0, let upright else { throw VipsDecoder.failure("cannot read the picture") }
        defer { CVips_unref(upright) }
        let width = Int(CVips_width(upright)), height = Int(CVips_height(upright))
        if !marks.allSatisfy({ $0.overlaps(width: Double(width), height: Double(height)) }) {
            throw ThumbnailError(.unsupported, "a mark is off the picture, which is \(width)×\(height) pixels as shown")
        }
        guard width * height <= maximumPixels else { throw ThumbnailError(.tooLarge, "the picture is larger than \(maximumPixels / 1_000_000) megapixels") }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { throw ThumbnailError(.tooLarge, "out of memory") }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else { throw ThumbnailError(.tooLarge, "out of memory") }
        let painter = MarkPainter(context: context, pictureWidth: width, pictureHeight: height)
        marks.forEach(painter.paint)
        cairo_destroy(context)
        cairo_surface_flush(surface)
        guard let pixels = cairo_image_surface_get_data(surface) else { throw ThumbnailError(.tooLarge, "out of memory") }
        var marked: UnsafeMutablePointer<VipsImage>?
        let status = CVips_composite_overlay(upright, pixels, Int32(width), Int32(height), cairo_image_surface_get_stride(surface), &marked)
        if status == -2 { throw ThumbnailError(.unsupported, "marks can be drawn only on pictures of 8 bits a sample") }
        guard status == 0, let marked else { throw VipsDecoder.failure("cannot lay the marks over the picture") }
        defer { CVips_unref(marked) }
        var notes: [String] = []
        let options: String
        let suffix = output.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if ["jpg", "jpeg", "jpe", "jfif"].contains(suffix) {
            let quality = JPEGQuality.estimate(header: try FileBytes(path: input).read(at: 0, count: 256 * 1024)) ?? 90
            options = "[Q=\(quality)]"
            notes.append("re-encoded as JPEG at quality \(quality), the original's (estimated from its tables): not lossless")
        } else {
            options = ["webp", "heic", "heif", "avif"].contains(suffix) ? "[lossless]" : ""
            if !["png", "tif", "tiff"].contains(suffix), options.isEmpty { notes.append("written again as .\(suffix) by libvips") }
        }
        guard CVips_write(marked, output + options) == 0 else { throw VipsDecoder.failure("cannot write the marked picture") }
        try EditOutput.flush(path: output)
        return FileEditResult(notes: notes, width: width, height: height, marks: marks.count)
    }
}
