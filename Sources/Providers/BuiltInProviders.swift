import SystemKit
import ThumbnailKit

/// Routes a content type to the providers that serve it: the built-in ones first, then the
/// external `.thumbnailer` commands that list the exact type (they serve types no built-in
/// reads, and are the fallback when a built-in fails) — unless `QLBROWSE_PREFER_EXTERNAL`
/// names the type (comma separated) or is `all`, in which case the external ones go first.
public struct BuiltInProviders {
    private let image = ImageProvider()
    private let raw = RawProvider()
    private let pdf = PDFProvider()
    private let video = VideoProvider()
    private let audio = AudioProvider()
    private let text = TextProvider()
    private let container = ContainerProvider()
    private let still = VideoProvider(stillImage: true)

    private let external: ExternalThumbnailersOnce
    private let preferExternal: Set<String>

    /// `preferExternal`: MIME types (or `all`) for which external thumbnailers come before the
    /// built-in providers; by default the `QLBROWSE_PREFER_EXTERNAL` environment variable.
    /// `external` is read at its first need (see `providers(for:path:)`).
    public init(external: @autoclosure @escaping () -> ExternalThumbnailers = ExternalThumbnailers(), preferExternal: Set<String>? = nil) {
        self.external = ExternalThumbnailersOnce(make: external)
        self.preferExternal = preferExternal ?? Self.preferExternalFromEnvironment()
    }

    /// The providers for a type, best first: the worker tries the next when one fails
    /// (a DNG whose embedded preview is unreadable is still a TIFF; an SVG libvips rejects is still text).
    /// The `.thumbnailer` files are read only when the chain gets to them: reading them (and the
    /// MIME database they are matched through) cost a new worker ~4 ms before its first answer.
    public func providers(for type: ContentType, path: String) -> ProviderChain {
        let builtIn = builtInProviders(for: type, path: path)
        let external = self.external
        let preferred = preferExternal.contains("all") || preferExternal.contains(type.identifier)
        return ProviderChain(builtIn: builtIn, commandsFirst: preferred) { external.value.providers(for: type) }
    }

    /// `QLBROWSE_PREFER_EXTERNAL=video/mp4,image/x-foo` or `=all`.
    static func preferExternalFromEnvironment() -> Set<String> {
        let value = ProcessEnvironment.variable("QLBROWSE_PREFER_EXTERNAL") ?? ""
        return Set(value.split(separator: ",").map { $0.trimmed(of: [" ", "\t"]).lowercased() }.filter { !$0.isEmpty })
    }

    private func builtInProviders(for type: ContentType, path: String) -> [ThumbnailProvider] {
        switch type.kind {
        case .image:
            if type.identifier == "image/openraster" { return [container] }
            if type.identifier.hasPrefix("image/svg") { return [image, text] }
            // libvips has no BMP, TGA or PCX loader of its own (ImageMagick's is blocked); FFmpeg decodes them.
            return [image, still]
        case .rawImage: return [raw, image]
        case .pdf: return [pdf]
        case .video: return [video]
        case .audio: return [audio]
        case .text: return [text]
        case .document:
            let id = type.identifier
            let zipped = ContainerProvider.zipBasedDocuments.contains(id) || id.hasPrefix("application/vnd.oasis.opendocument.")
                || id.hasPrefix("application/vnd.openxmlformats-officedocument.")
            return zipped ? [container] : []
        case .archive:
            return type.identifier == "application/zip" && ZipLooksLikeComic.check(path) ? [container] : []
        case .unknown:
            // Content only the bytes identify (a picture without an extension libmagic missed): let libvips try.
            // (A libvips that cannot be opened is the installation's fault, not the file's: the
            // image provider says so, and the cache does not remember that as the file's failure.)
            return (try? VipsDecoder.start()) == nil || VipsDecoder.hasLoader(for: path) ? [image] : []
        case .folder:
            return []
        }
    }
}

/// A type's providers in the order they are tried: the built-in ones, then the external commands
/// (or those first when the user prefers them), the commands looked up only when reached.
public struct ProviderChain: Sequence {
    let builtIn: [ThumbnailProvider]
    let commandsFirst: Bool
    let commands: () -> [ThumbnailProvider]

    public var isEmpty: Bool { builtIn.isEmpty && commands().isEmpty }

    public func makeIterator() -> AnyIterator<ThumbnailProvider> {
        if commandsFirst { return AnyIterator((commands() + builtIn).makeIterator()) }
        var builtInLeft = builtIn.makeIterator()
        var commandsLeft: IndexingIterator<[ThumbnailProvider]>?
        return AnyIterator {
            if let next = builtInLeft.next() { return next }
            if commandsLeft == nil { commandsLeft = commands().makeIterator() }
            return commandsLeft?.next()
        }
    }
}

/// The `.thumbnailer` files, read once, at the first use (the worker's decode queue only).
final class ExternalThumbnailersOnce: @unchecked Sendable {
    private let make: () -> ExternalThumbnailers
    lazy var value = make()

    init(make: @escaping () -> ExternalThumbnailers) { self.make = make }
}

extension ContainerProvider {
    static let zipBasedDocuments: Set<String> = [
        "application/epub+zip", "application/vnd.comicbook+zip", "application/x-cbz", "model/3mf",
        "application/vnd.ms-package.3dmanufacturing-3dmodel+xml", "application/x-krita", "image/openraster",
    ]
}

/// A plain `.zip` that holds only pictures is a comic or a photo album: show its first page.
enum ZipLooksLikeComic {
    static func check(_ path: String) -> Bool {
        guard let archive = try? ZipArchive(path: path) else { return false }
        let files = archive.entries.filter { !$0.name.hasSuffix("/") && !$0.name.contains("__MACOSX") }
        let pictures = files.filter { ContainerProvider.imageExtensions.contains(($0.name.split(separator: ".").last ?? "").lowercased()) }
        return !pictures.isEmpty && pictures.count * 10 >= files.count * 8
    }
}
