import SystemKit
import ThumbnailKit

/// Which MIME types get thumbnails, and from what: the rows `qlbrowse types` prints. Built-in
/// providers first (origin `built-in`), then every installed `.thumbnailer`'s types (origin: the
/// file's path), so a user can see at a glance whether their own thumbnailer was picked up.
public enum ProviderCatalog {
    public static func rows() -> [(type: String, provider: String, origin: String)] {
        rows(external: ExternalThumbnailers())
    }

    public static func rows(external: ExternalThumbnailers) -> [(type: String, provider: String, origin: String)] {
        var seen = Set<String>()
        let builtIn = Set(ContentTypeTable.byExtension.values).sorted().compactMap { id -> (type: String, provider: String, origin: String)? in
            guard seen.insert(id).inserted, let provider = builtInProvider(for: ContentType(id)) else { return nil }
            return (type: id, provider: provider, origin: "built-in")
        }
        let commands = external.servedTypes.map { (type: $0.type, provider: $0.thumbnailer.name, origin: $0.thumbnailer.path) }
        return builtIn + commands
    }

    /// The name of the built-in provider that serves a type, or nil when none does (mirrors
    /// `BuiltInProviders`' routing without opening a file).
    static func builtInProvider(for type: ContentType) -> String? {
        let id = type.identifier
        switch type.kind {
        case .image:
            if id == "image/openraster" { return "container" }
            return "vips"
        case .rawImage: return "libraw"
        case .pdf: return "poppler"
        case .video: return "libav"
        case .audio: return "cover+waveform"
        case .text: return "text"
        case .document:
            let zipped = ContainerProvider.zipBasedDocuments.contains(id) || id.hasPrefix("application/vnd.oasis.opendocument.")
                || id.hasPrefix("application/vnd.openxmlformats-officedocument.")
            return zipped ? "container" : nil
        case .archive:
            // A zip of pictures is shown as its first page; other archives get the icon.
            return id == "application/zip" ? "container" : nil
        case .unknown, .folder:
            return nil
        }
    }
}
