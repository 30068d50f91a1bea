import ThumbnailKit

/// PDF documents: page 1 rendered through poppler-glib and cairo onto white paper, at the size
/// of the box (vector rendering, so no large bitmap is ever made).
public struct PDFProvider: ThumbnailProvider {
    public let name = "poppler"

    public init() {}

    public func makeImages(for job: ProviderJob, emit: (ProviderImage) -> Void) throws(ThumbnailError) {
        guard job.wantsThumbnail else { return }
        let document = try PDFDocument(path: job.path)
        let (image, points) = try document.render(page: 0, in: job.box, cancellation: job.cancellation)
        var facts = [FileFact("pages", String(document.pageCount)), FileFact("page size", "\(points.width)×\(points.height) pt")]
        if let title = document.title { facts.insert(FileFact("title", title), at: 0) }
        emit(ProviderImage(.thumbnail, image, source: name, facts: facts))
    }
}
