import CPoppler
import CCairo
import ThumbnailKit

/// PDF documents: page 1 rendered through poppler-glib and cairo onto white paper, at the size
/// of the box (vector rendering, so no large bitmap is ever made).
public struct PDFProvider: ThumbnailProvider {
    public let name = "poppler"

    public init() {}

    public func makeImages(for job: ProviderJob, emit: (ProviderImage) -> Void) throws(ThumbnailError) {
        guard job.wantsThumbnail else { return }
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(PathNormalizer.absolute(job.path), nil, &error) else {
            defer { CPoppler_error_free(error) }
            throw ThumbnailError(.unreadable, "cannot name the file as a URI: \(String(cString: CPoppler_error_message(error)))")
        }
        defer { g_free(uri) }
        guard let document = poppler_document_new_from_file(uri, nil, &error) else {
            defer { CPoppler_error_free(error) }
            if CPoppler_error_is_encrypted(error) != 0 {
                throw ThumbnailError(.encrypted, "the PDF is encrypted and needs a password")
            }
            let detail = String(cString: CPoppler_error_message(error))
            throw ThumbnailError(.corrupt, "cannot read the PDF" + (detail.isEmpty ? "" : ": \(detail)"))
        }
        defer { CPoppler_unref(UnsafeRawPointer(document)) }
        guard poppler_document_get_n_pages(document) > 0, let page = poppler_document_get_page(document, 0) else {
            throw ThumbnailError(.corrupt, "the PDF has no pages")
        }
        defer { CPoppler_unref(UnsafeRawPointer(page)) }
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        guard width > 0, height > 0, width.isFinite, height.isFinite else { throw ThumbnailError(.corrupt, "page 1 has no size") }
        try job.cancellation.check()
        let pagePoints = PixelSize(width: max(1, Int(width.rounded())), height: max(1, Int(height.rounded())))
        let target = ThumbnailGeometry.fit(pagePoints, in: job.box, upscale: true)
        let surface = try CairoSurface(size: target)
        cairo_scale(surface.context, Double(target.width) / width, Double(target.height) / height)
        poppler_page_render(page, surface.context)
        var facts = [FileFact("pages", String(poppler_document_get_n_pages(document))),
                     FileFact("page size", "\(Int(width.rounded()))×\(Int(height.rounded())) pt")]
        if let title = poppler_document_get_title(document) {
            let text = String(cString: title)
            g_free(title)
            if !text.isEmpty { facts.insert(FileFact("title", text), at: 0) }
        }
        emit(ProviderImage(.thumbnail, surface.pixelImage(), source: name, facts: facts))
    }
}
