import SystemKit
import CVips
import ThumbnailKit

/// libvips, wrapped: shrink-on-load thumbnails from files and from memory, as `PixelImage`s.
///
/// `vips_thumbnail` picks the cheapest way to the target size (JPEG DCT scaling, pyramid levels,
/// sequential streaming), so memory stays bounded whatever the source size. The ImageMagick
/// loader is blocked in `start()`: it accepts anything and misreads most of it.
public enum VipsDecoder {
    /// Opens and initialises libvips once for the process (it is not linked: see CLazyLibrary).
    /// Safe to call more than once; throws, every time, if it could not be.
    public static func start() throws(ThumbnailError) {
        if let startFailure { throw ThumbnailError(.workerUnavailable, startFailure) }
    }

    private static let startFailure: String? = {
        if let why = CVips_library_error() { return String(cString: why) }
        guard CVips_start("qlbrowse-thumbnailer") == 0 else { return "libvips did not start: " + String(cString: CVips_error_text()) }
        return nil
    }()

    /// Whether libvips has a loader for this file (looked up from its header bytes).
    public static func hasLoader(for path: String) -> Bool {
        guard (try? start()) != nil else { return false }
        let found = CVips_loader(path) != nil
        CVips_error_clear()
        return found
    }

    /// A thumbnail of the file fitting `box`, EXIF orientation applied.
    /// `displayedSize` is asked for only when the result looks too small for the box, to tell a
    /// small image from a wrongly chosen resolution level.
    public static func thumbnail(path: String, box: PixelSize, displayedSize: () -> PixelSize? = { nil }, cancellation: CancellationFlag) throws(ThumbnailError) -> PixelImage {
        try start()
        var image: UnsafeMutablePointer<VipsImage>?
        guard CVips_thumbnail(path, &image, Int32(box.width), Int32(box.height)) == 0, let image else {
            throw failure("cannot decode image")
        }
        let result = try pixels(of: image, cancellation: cancellation)
        // libvips 8.14's "size down" can pick a far too small resolution level (JPEG 2000): when the
        // result is much smaller than the image allows, ask again with the box clamped to the image.
        guard max(result.width, result.height) * 2 < max(box.width, box.height),
              let size = displayedSize(), size.width > 0, size.height > 0 else { return result }
        let expected = ThumbnailGeometry.fit(size, in: box)
        if max(result.width, result.height) * 2 < max(expected.width, expected.height) {
            var retry: UnsafeMutablePointer<VipsImage>?
            if CVips_thumbnail_any_size(path, &retry, Int32(expected.width), Int32(expected.height)) == 0, let retry {
                return try pixels(of: retry, cancellation: cancellation)
            }
            CVips_error_clear()
        }
        return result
    }

    /// The picture fitted to `box` whatever its own size: a small picture is enlarged (zooming
    /// into a photo in Quick Look), a large one shrunk on load.
    public static func fitted(path: String, box: PixelSize, cancellation: CancellationFlag) throws(ThumbnailError) -> PixelImage {
        try start()
        var image: UnsafeMutablePointer<VipsImage>?
        guard CVips_thumbnail_any_size(path, &image, Int32(box.width), Int32(box.height)) == 0, let image else {
            throw failure("cannot decode image")
        }
        return try pixels(of: image, cancellation: cancellation)
    }

    /// One frame of a many-page picture (an animated WebP), shrunk to fit `box` as video frames are.
    public static func thumbnail(path: String, page: Int, box: PixelSize, cancellation: CancellationFlag) throws(ThumbnailError) -> PixelImage {
        // libvips reads load options from the end of the name: "anim.webp[page=3]".
        try thumbnail(path: "\(path)[page=\(max(0, page))]", box: box, cancellation: cancellation)
    }

    /// A thumbnail of an encoded image held in memory (an embedded preview, cover art, a zip entry).
    /// `autorotate: false` ignores the embedded image's own EXIF orientation (the container's applies instead).
    public static func thumbnail(bytes: [UInt8], box: PixelSize, autorotate: Bool = true, cancellation: CancellationFlag) throws(ThumbnailError) -> PixelImage {
        try start()
        var image: UnsafeMutablePointer<VipsImage>?
        let status = bytes.withUnsafeBytes { CVips_thumbnail_buffer($0.baseAddress, $0.count, &image, Int32(box.width), Int32(box.height), autorotate ? 1 : 0) }
        guard status == 0, let image else { throw failure("cannot decode embedded image") }
        return try pixels(of: image, cancellation: cancellation)
    }

    /// Renders a (lazy) vips image to RGBA memory, then releases it.
    private static func pixels(of image: UnsafeMutablePointer<VipsImage>, cancellation: CancellationFlag) throws(ThumbnailError) -> PixelImage {
        defer { CVips_unref(image) }
        var rgba: UnsafeMutablePointer<VipsImage>?
        guard CVips_to_rgba8(image, &rgba) == 0, let rgba else { throw failure("cannot convert image") }
        defer { CVips_unref(rgba) }
        CVips_watch_cancel(rgba, cancellation.cFlag)
        let width = Int(CVips_width(rgba)), height = Int(CVips_height(rgba))
        var size = 0
        guard let memory = CVips_write_to_memory(rgba, &size) else {
            try cancellation.check()
            throw failure("cannot decode image")
        }
        defer { g_free(memory) }
        try cancellation.check()
        guard size == width * height * 4, width > 0, height > 0 else { throw failure("unexpected pixel layout") }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: memory, count: size))
        return PixelImage(width: width, height: height, pixels: bytes)
    }

    /// A `ThumbnailError` carrying libvips' own first error line, cleaned up for people.
    public static func failure(_ what: String) -> ThumbnailError {
        let detail = String(cString: CVips_error_text())
            .split(separator: "\n").first.map(String.init)?
            .trimmingPrefix(while: { $0 == " " }) ?? ""
        CVips_error_clear()
        if detail.contains("operation is blocked") || detail.contains("not a known") || detail.contains("is not in a known format") {
            return ThumbnailError(.unsupported, "\(what): not an image format qlbrowse reads")
        }
        return ThumbnailError(.corrupt, detail.isEmpty ? what : "\(what): \(detail)")
    }
}

extension String {
    func trimmingPrefix(while predicate: (Character) -> Bool) -> String {
        String(drop(while: predicate))
    }
}
extension Substring {
    func trimmingPrefix(while predicate: (Character) -> Bool) -> String {
        String(drop(while: predicate))
    }
}
