import CMagic
import SystemKit
import ThumbnailKit

/// Content type from the file's bytes (libmagic), refined by its name where the bytes are
/// ambiguous: libmagic calls a DNG `image/tiff`, a CBZ or EPUB without its `mimetype` entry
/// `application/zip`, and a Swift source `text/plain`. Bytes win over the name otherwise, so
/// a JPEG named `.png` is a JPEG.
///
/// The shared-mime-info database is consulted too, so a type a user or a package registered with
/// `update-mime-database` is found: its unambiguous name match wins where the table above has no
/// opinion about the name, or only decided by the name itself (see `decide`).
public final class ContentSniffer {
    /// libmagic and the shared-mime-info database are opened at the first file the fast path below
    /// cannot decide (loading both cost a new worker ~5 ms before its first answer, and most
    /// files are a JPEG, PNG or PDF named as such).
    private let makeDatabase: () -> SharedMimeDatabase
    private lazy var mimeDatabase = makeDatabase()
    /// The table's types, as written and as the database spells them (aliases resolved).
    private lazy var tableTypes: Set<String> = {
        let known = Set(ContentTypeTable.byExtension.values).union(ContentTypeTable.rawTypes)
        return known.union(known.map { mimeDatabase.canonical(ContentType($0)).identifier })
    }()
    /// libmagic's handle once opened (nil inside: it could not be).
    private var magic: OpaquePointer??

    public init(mimeDatabase: @autoclosure @escaping () -> SharedMimeDatabase = SharedMimeDatabase.loaded()) {
        self.makeDatabase = mimeDatabase
    }

    deinit { if let cookie = magic ?? nil { magic_close(cookie) } }

    private var cookie: OpaquePointer? {
        if let magic { return magic }
        var opened = magic_open(MAGIC_MIME_TYPE | MAGIC_SYMLINK | MAGIC_ERROR | MAGIC_NO_CHECK_COMPRESS | MAGIC_NO_CHECK_ELF)
        if let handle = opened, magic_load(handle, nil) != 0 {
            magic_close(handle)
            opened = nil
        }
        magic = .some(opened)
        return opened
    }

    public func contentType(ofFile path: String) -> ContentType {
        let byName = ContentTypeTable.type(forFileName: path)
        // The common case costs no libmagic run (0.1 to 7 ms a file): the name says JPEG, PNG, GIF,
        // WebP or PDF and the first bytes carry exactly that format's signature.
        if let byName, let signature = Self.signatures[byName.identifier],
           let head = try? FileBytes(path: path).read(at: 0, count: 16), Self.matches(head, signature) {
            return byName
        }
        let shared = mimeDatabase.type(forFileName: path)
        guard let cookie, let raw = magic_file(cookie, path) else { return byName ?? shared ?? .unknown }
        let sniffed = ContentType(String(cString: raw))
        let decided = decide(sniffed: sniffed, byName: byName, shared: shared)
        guard decided == .unknown else { return decided }
        // Neither libmagic nor any name knows it: shared-mime-info's own magic may (a registered format without its extension).
        let header = (try? FileBytes(path: path))?.read(at: 0, count: max(1, mimeDatabase.headerLength)) ?? []
        return mimeDatabase.magicType(header: header) ?? decided
    }

    /// Byte patterns at the start of a file (nil: any byte) for the formats the fast path trusts.
    static let signatures: [String: [UInt8?]] = [
        "image/jpeg": [0xFF, 0xD8, 0xFF],
        "image/png": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
        "image/gif": Array("GIF8".utf8),
        "image/webp": Array("RIFF".utf8) + [nil, nil, nil, nil] + Array("WEBP".utf8),
        "application/pdf": Array("%PDF-".utf8),
    ]

    static func matches(_ head: [UInt8], _ signature: [UInt8?]) -> Bool {
        guard head.count >= signature.count else { return false }
        return zip(head, signature).allSatisfy { byte, expected in expected == nil || byte == expected }
    }

    /// The decision between libmagic (`sniffed`), the built-in table's name match and
    /// shared-mime-info's unambiguous name match (`shared`, canonical).
    ///
    /// A shared type the table does not know (a user's or a third party's) wins when the table has
    /// no opinion about the name, or when the table's own answer came from the name too and the
    /// shared type is one a provider can route (`feed.rss` is `application/rss+xml`, not merely
    /// XML). When libmagic only says "some bytes" or "some text" and the table has no opinion,
    /// the shared name match wins whatever it is. Otherwise the table's rules stand.
    func decide(sniffed: ContentType, byName: ContentType?, shared: ContentType?) -> ContentType {
        let refined = Self.refine(sniffed: sniffed, byName: byName)
        guard let shared, shared != refined else { return refined }
        if !tableTypes.contains(shared.identifier) {
            if byName == nil { return shared }
            let routable = shared.kind != .unknown || refined.kind == .unknown
            if refined == byName && routable { return shared }
        }
        guard byName == nil else { return refined }
        switch sniffed.identifier {
        case "application/octet-stream":
            return shared
        case "text/plain":
            return shared.kind == .text || mimeDatabase.isSubclass(shared, of: .plainText) ? shared : refined
        default:
            return refined
        }
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
        case "application/gzip" where byName.identifier == "image/svg+xml-compressed",
             "application/x-gzip" where byName.identifier == "image/svg+xml-compressed":
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
