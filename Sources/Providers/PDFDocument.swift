import CCairo
import CPoppler
import SystemKit
import ThumbnailKit
import SystemKit

/// An opened PDF (poppler-glib), released with the object: page count, title, and any page
/// rendered through cairo at the size of a box, onto white paper.
public final class PDFDocument {
    private let document: OpaquePointer

    /// Opens the file; an encrypted PDF throws `.encrypted`, a damaged one `.corrupt`.
    public init(path: String) throws(ThumbnailError) {
        var error: UnsafeMutablePointer<GError>?
        // GLib's escaping of the name's own bytes (a name that is not UTF-8 stays itself).
        let uri = FileURI.from(absolutePath: PathNormalizer.absolute(path))
        guard let document = poppler_document_new_from_file(uri, nil, &error) else {
            defer { CPoppler_error_free(error) }
            if CPoppler_error_is_encrypted(error) != 0 {
                throw ThumbnailError(.encrypted, "the PDF is encrypted and needs a password")
            }
            let detail = String(cString: CPoppler_error_message(error))
            throw ThumbnailError(.corrupt, "cannot read the PDF" + (detail.isEmpty ? "" : ": \(detail)"))
        }
        self.document = document
        guard pageCount > 0 else { throw ThumbnailError(.corrupt, "the PDF has no pages") }
    }

    deinit { CPoppler_unref(UnsafeRawPointer(document)) }

    public var pageCount: Int { Int(poppler_document_get_n_pages(document)) }

    /// The document's title from its metadata, nil when it has none.
    public var title: String? {
        guard let title = poppler_document_get_title(document) else { return nil }
        defer { g_free(title) }
        let text = String(cString: title)
        return text.isEmpty ? nil : text
    }

    /// Page `index` (from 0) drawn at the largest size that fits `box`, enlarged if the page is
    /// smaller (vector rendering, so the picture is sharp and no bitmap larger than the box is made);
    /// with the page's size in points as displayed (its /Rotate applied).
    public func render(page index: Int, in box: PixelSize, cancellation: CancellationFlag) throws(ThumbnailError) -> (image: PixelImage, points: PixelSize) {
        guard index >= 0, index < pageCount, let page = poppler_document_get_page(document, Int32(index)) else {
            throw ThumbnailError(.corrupt, "page \(index + 1) cannot be read")
        }
        defer { CPoppler_unref(UnsafeRawPointer(page)) }
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        guard width > 0, height > 0, width.isFinite, height.isFinite else { throw ThumbnailError(.corrupt, "page \(index + 1) has no size") }
        try cancellation.check()
        let points = PixelSize(width: max(1, Int(saturating: width.rounded())), height: max(1, Int(saturating: height.rounded())))
        let target = ThumbnailGeometry.fit(points, in: box, upscale: true)
        let surface = try CairoSurface(size: target)
        cairo_scale(surface.context, Double(target.width) / width, Double(target.height) / height)
        poppler_page_render(page, surface.context)
        try cancellation.check()
        return (surface.pixelImage(), points)
    }
}
