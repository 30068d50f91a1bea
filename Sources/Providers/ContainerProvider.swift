import SystemKit
import ThumbnailKit

/// Files that carry their own thumbnail inside a ZIP: OpenDocument (`Thumbnails/thumbnail.png`),
/// EPUB (the cover), CBZ (the first page), 3MF, Krita, OpenRaster and Office Open XML.
public struct ContainerProvider: ThumbnailProvider {
    public let name = "container"

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "bmp", "tif", "tiff", "avif", "jxl"]

    public init() {}

    public func makeImages(for job: ProviderJob, emit: (ProviderImage) -> Void) throws(ThumbnailError) {
        let archive = try ZipArchive(path: job.path)
        guard let (entry, source) = try Self.picture(in: archive, contentType: job.contentType) else {
            throw ThumbnailError(.noPreview, "the document has no embedded thumbnail or cover")
        }
        try job.cancellation.check()
        let bytes = try archive.contents(of: entry)
        let image = try VipsDecoder.thumbnail(bytes: bytes, box: job.box, cancellation: job.cancellation)
        // The embedded picture is the best there is: it answers both qualities.
        emit(ProviderImage(job.wantsThumbnail ? .thumbnail : .lowQuality, image, source: source))
    }

    /// The entry holding the document's picture, and a name for where it came from.
    static func picture(in archive: ZipArchive, contentType: ContentType) throws(ThumbnailError) -> (ZipArchive.Entry, String)? {
        let id = contentType.identifier
        let named: [String]
        switch id {
        case "application/epub+zip":
            return try epubCover(in: archive).map { ($0, "cover") }
        case "application/vnd.comicbook+zip", "application/x-cbz", "application/zip":
            return firstPage(in: archive).map { ($0, "page") }
        case "model/3mf", "application/vnd.ms-package.3dmanufacturing-3dmodel+xml":
            named = ["Metadata/thumbnail.png", "Metadata/thumbnail.jpg", "Metadata/thumbnail.jpeg"]
        case "application/x-krita":
            named = ["preview.png", "mergedimage.png"]
        case "image/openraster":
            named = ["Thumbnails/thumbnail.png", "mergedimage.png"]
        default:
            if id.hasPrefix("application/vnd.openxmlformats-officedocument.") {
                named = ["docProps/thumbnail.jpeg", "docProps/thumbnail.jpg", "docProps/thumbnail.png", "docProps/thumbnail.emf"]
            } else {
                named = ["Thumbnails/thumbnail.png"]
            }
        }
        for name in named { if let entry = archive.entry(named: name), !name.hasSuffix(".emf") { return (entry, "thumbnail") } }
        return nil
    }

    private static func epubCover(in archive: ZipArchive) throws(ThumbnailError) -> ZipArchive.Entry? {
        guard let container = archive.entry(named: "META-INF/container.xml") else { return firstPage(in: archive) }
        let containerXML = String(decoding: try archive.contents(of: container), as: UTF8.self)
        guard let packagePath = EPUBCoverLocator.packagePath(containerXML: containerXML),
              let package = archive.entry(named: packagePath) else { return nil }
        let packageXML = String(decoding: try archive.contents(of: package), as: UTF8.self)
        guard let cover = EPUBCoverLocator.coverPath(packageXML: packageXML, packagePath: packagePath) else { return nil }
        return archive.entry(named: cover)
    }

    /// The first image in natural name order, skipping macOS resource forks and hidden files.
    static func firstPage(in archive: ZipArchive) -> ZipArchive.Entry? {
        archive.entries
            .filter { entry in
                let parts = entry.name.split(separator: "/")
                guard let last = parts.last, !parts.contains("__MACOSX"), !last.hasPrefix("."), !entry.name.hasSuffix("/") else { return false }
                let ext = last.split(separator: ".").last.map { $0.lowercased() } ?? ""
                return imageExtensions.contains(ext)
            }
            .min { NaturalOrder.less($0.name, $1.name) }
    }
}
