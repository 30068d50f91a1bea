import SystemKit
import ThumbnailKit

/// Which MIME types get thumbnails, and from what: the rows `qlbrowse types` prints. Built-in
/// providers first (origin `built-in`), then every installed `.thumbnailer`'s types (origin: the
/// file's path), so a user can see at a glance whether their own thumbnailer was picked up; then,
/// in a section of their own, the `.previewer` files' types.
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

    /// Which MIME types have a custom previewer, and which: every installed `.previewer`'s types,
    /// in the order the worker looks them up (for a type listed twice, the first row wins).
    public static func previewerRows(previewers: ExternalPreviewers = ExternalPreviewers())
        -> [(type: String, previewer: String, output: String, overridesBuiltIn: Bool, origin: String)] {
        previewers.servedTypes.map {
            (type: $0.type, previewer: $0.previewer.name, output: $0.previewer.output.rawValue,
             overridesBuiltIn: $0.previewer.overridesBuiltIn, origin: $0.previewer.path)
        }
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
