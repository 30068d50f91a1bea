import CMagic
import ThumbnailKit

/// Content type from the file's bytes (libmagic), refined by its name where the bytes are
/// ambiguous: libmagic calls a DNG `image/tiff`, a CBZ or EPUB without its `mimetype` entry
/// `application/zip`, and a Swift source `text/plain`. Bytes win over the name otherwise, so
/// a JPEG named `.png` is a JPEG.
public final class ContentSniffer {
    private let cookie: OpaquePointer?

    public init() {
        cookie = magic_open(MAGIC_MIME_TYPE | MAGIC_SYMLINK | MAGIC_ERROR | MAGIC_NO_CHECK_COMPRESS | MAGIC_NO_CHECK_ELF)
        if let cookie, magic_load(cookie, nil) != 0 {
            magic_close(cookie)
        }
    }

    deinit { if let cookie { magic_close(cookie) } }

    public func contentType(ofFile path: String) -> ContentType {
        let byName = ContentTypeTable.type(forFileName: path)
        guard let cookie, let raw = magic_file(cookie, path) else { return byName ?? .unknown }
        return Self.refine(sniffed: ContentType(String(cString: raw)), byName: byName)
    }

    /// The decision between what the bytes say and what the name says.
    public static func refine(sniffed: ContentType, byName: ContentType?) -> ContentType {
        guard let byName else { return sniffed }
        let id = sniffed.identifier
        if id == byName.identifier { return sniffed }
        switch id {
        case "application/octet-stream", "application/zip", "application/x-zip-compressed":
            return byName
        case "image/tiff" where byName.kind == .rawImage:
            return byName
        case "application/gzip", "application/x-gzip" where byName.identifier == "image/svg+xml-compressed":
            return byName
        case "text/plain", "text/x-c", "text/x-c++", "text/x-java", "text/html", "text/xml", "application/json", "text/x-script.python":
            return byName.kind == .text ? byName : sniffed
        case "application/x-empty", "inode/x-empty":
            return sniffed
        default:
            // Same family, more precise name (audio/x-hx-aac-adts vs audio/aac, video/x-m4v vs video/mp4): the name is fine.
            if sniffed.kind == byName.kind && sniffed.kind != .unknown { return sniffed }
            return sniffed
        }
    }
}
