/// The conformance table: which MIME types are images, videos, text…, and which extension means
/// which type. Kept as plain data so the light process can guess a type from a name without
/// touching the file's content (content sniffing happens in the worker).
public enum ContentTypeTable {
    /// Extension (lower case, no dot) → MIME type.
    public static let byExtension: [String: String] = {
        var table: [String: String] = [:]
        for (type, extensions) in typesAndExtensions {
            for ext in extensions where table[ext] == nil { table[ext] = type }
        }
        return table
    }()

    private static let typesAndExtensions: [(String, [String])] = [
        ("image/jpeg", ["jpg", "jpeg", "jpe", "jfif"]),
        ("image/png", ["png"]),
        ("image/apng", ["apng"]),
        ("image/gif", ["gif"]),
        ("image/webp", ["webp"]),
        ("image/tiff", ["tif", "tiff"]),
        ("image/bmp", ["bmp", "dib"]),
        ("image/heic", ["heic", "heics"]),
        ("image/heif", ["heif", "hif"]),
        ("image/avif", ["avif"]),
        ("image/svg+xml", ["svg"]),
        ("image/svg+xml-compressed", ["svgz"]),
        ("image/jp2", ["jp2", "j2k", "jpf", "jpx"]),
        ("image/jxl", ["jxl"]),
        ("image/x-portable-pixmap", ["ppm", "pgm", "pbm", "pnm"]),
        ("image/vnd.radiance", ["hdr"]),
        ("image/x-exr", ["exr"]),
        ("image/vnd.microsoft.icon", ["ico"]),
        ("image/x-tga", ["tga"]),
        ("image/vnd.adobe.photoshop", ["psd"]),
        ("image/x-adobe-dng", ["dng"]),
        ("image/x-canon-cr2", ["cr2"]),
        ("image/x-canon-cr3", ["cr3"]),
        ("image/x-canon-crw", ["crw"]),
        ("image/x-nikon-nef", ["nef", "nrw"]),
        ("image/x-sony-arw", ["arw", "srf", "sr2"]),
        ("image/x-olympus-orf", ["orf"]),
        ("image/x-panasonic-rw2", ["rw2"]),
        ("image/x-fuji-raf", ["raf"]),
        ("image/x-pentax-pef", ["pef"]),
        ("image/x-minolta-mrw", ["mrw"]),
        ("image/x-phaseone-iiq", ["iiq"]),
        ("image/x-sigma-x3f", ["x3f"]),
        ("image/x-samsung-srw", ["srw"]),
        ("video/mp4", ["mp4", "m4v"]),
        ("video/x-matroska", ["mkv"]),
        ("video/webm", ["webm"]),
        ("video/quicktime", ["mov", "qt"]),
        ("video/x-msvideo", ["avi"]),
        ("video/x-flv", ["flv"]),
        ("video/3gpp", ["3gp"]),
        ("video/mp2t", ["ts", "m2ts", "mts"]),
        ("video/mpeg", ["mpg", "mpeg"]),
        ("video/x-ms-wmv", ["wmv"]),
        ("video/ogg", ["ogv"]),
        ("audio/mpeg", ["mp3"]),
        ("audio/flac", ["flac"]),
        ("audio/mp4", ["m4a", "m4b"]),
        ("audio/x-wav", ["wav"]),
        ("audio/ogg", ["ogg", "oga"]),
        ("audio/opus", ["opus"]),
        ("audio/aac", ["aac"]),
        ("audio/x-aiff", ["aif", "aiff"]),
        ("audio/x-ms-wma", ["wma"]),
        ("application/pdf", ["pdf"]),
        ("application/epub+zip", ["epub"]),
        ("application/vnd.oasis.opendocument.text", ["odt"]),
        ("application/vnd.oasis.opendocument.spreadsheet", ["ods"]),
        ("application/vnd.oasis.opendocument.presentation", ["odp"]),
        ("application/vnd.oasis.opendocument.graphics", ["odg"]),
        ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", ["docx"]),
        ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ["xlsx"]),
        ("application/vnd.openxmlformats-officedocument.presentationml.presentation", ["pptx"]),
        ("application/vnd.comicbook+zip", ["cbz"]),
        ("application/vnd.comicbook-rar", ["cbr"]),
        ("application/x-cb7", ["cb7"]),
        ("application/x-cbt", ["cbt"]),
        ("model/3mf", ["3mf"]),
        ("application/x-krita", ["kra"]),
        ("image/openraster", ["ora"]),
        ("application/zip", ["zip"]),
        ("application/x-tar", ["tar"]),
        ("application/gzip", ["gz", "tgz"]),
        ("application/x-xz", ["xz"]),
        ("application/x-bzip2", ["bz2"]),
        ("application/zstd", ["zst"]),
        ("application/x-7z-compressed", ["7z"]),
        ("application/vnd.rar", ["rar"]),
        ("application/vnd.debian.binary-package", ["deb"]),
        ("application/x-iso9660-image", ["iso"]),
        ("text/plain", ["txt", "text", "log", "conf", "cfg", "ini", "in", "nfo"]),
        ("text/markdown", ["md", "markdown"]),
        ("text/csv", ["csv"]),
        ("text/tab-separated-values", ["tsv"]),
        ("text/html", ["html", "htm", "xhtml"]),
        ("text/css", ["css"]),
        ("text/x-swift", ["swift"]),
        ("text/x-csrc", ["c", "h"]),
        ("text/x-c++src", ["cc", "cpp", "cxx", "hpp", "hh", "hxx"]),
        ("text/x-python", ["py", "pyi"]),
        ("text/x-rust", ["rs"]),
        ("text/x-go", ["go"]),
        ("text/x-java", ["java"]),
        ("text/x-kotlin", ["kt", "kts"]),
        ("text/x-ruby", ["rb"]),
        ("text/x-perl", ["pl", "pm"]),
        ("text/x-lua", ["lua"]),
        ("text/x-shellscript", ["sh", "bash", "zsh", "fish"]),
        ("text/x-makefile", ["mk", "mak"]),
        ("text/x-tex", ["tex", "sty", "cls"]),
        ("text/x-diff", ["diff", "patch"]),
        ("text/vcard", ["vcf", "vcard"]),
        ("text/calendar", ["ics", "ical"]),
        ("text/rtf", ["rtf"]),
        ("text/x-yaml", ["yaml", "yml"]),
        ("application/toml", ["toml"]),
        ("application/json", ["json", "jsonl", "ndjson", "geojson"]),
        ("application/xml", ["xml", "xsd", "xsl", "plist", "rss", "atom", "gpx", "kml"]),
        ("application/javascript", ["js", "mjs", "cjs"]),
        ("application/typescript", ["ts_"]),
        ("application/sql", ["sql"]),
    ]

    /// MIME types that are text though their media type is not `text/`.
    private static let textApplications: Set<String> = [
        "application/json", "application/xml", "application/javascript", "application/typescript",
        "application/sql", "application/toml", "application/x-shellscript", "application/x-yaml",
        "application/x-sh", "application/x-perl", "application/x-ruby", "application/x-python",
        "application/x-subrip", "application/ld+json", "application/x-ndjson", "application/rtf",
        "image/svg+xml-source",
    ]

    static let documentTypes: Set<String> = [
        "application/epub+zip", "application/vnd.comicbook+zip", "application/x-cbz", "model/3mf",
        "application/vnd.ms-package.3dmanufacturing-3dmodel+xml", "application/x-krita", "image/openraster",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "application/vnd.comicbook-rar", "application/x-cb7", "application/x-cbt",
        "application/msword", "application/vnd.ms-excel", "application/vnd.ms-powerpoint",
    ]

    static let archiveTypes: Set<String> = [
        "application/zip", "application/x-tar", "application/gzip", "application/x-gzip", "application/x-xz",
        "application/x-bzip2", "application/zstd", "application/x-7z-compressed", "application/vnd.rar",
        "application/x-rar", "application/vnd.debian.binary-package", "application/x-iso9660-image",
        "application/java-archive", "application/x-compress", "application/x-lzma", "application/x-lzip",
    ]

    /// The MIME type for a file name's extension, or nil when the extension says nothing.
    public static func type(forFileName name: String) -> ContentType? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return byExtension[ext].map(ContentType.init)
    }

    /// The family of a MIME type.
    public static func kind(of type: ContentType) -> ContentKind {
        let id = type.identifier
        if id == "inode/directory" { return .folder }
        if id == "application/pdf" || id == "application/x-pdf" { return .pdf }
        if id.hasPrefix("image/x-") && rawTypes.contains(id) { return .rawImage }
        if documentTypes.contains(id) || id.hasPrefix("application/vnd.oasis.opendocument.") { return .document }
        if archiveTypes.contains(id) { return .archive }
        if textApplications.contains(id) || id.hasSuffix("+json") || id.hasSuffix("+xml") && !id.hasPrefix("image/") {
            return .text
        }
        switch type.mediaType {
        case "image": return .image
        case "video": return .video
        case "audio": return .audio
        case "text": return .text
        default: return .unknown
        }
    }

    /// Camera RAW MIME types (routed to the RAW provider, which reads the embedded preview).
    public static let rawTypes: Set<String> = [
        "image/x-adobe-dng", "image/x-canon-cr2", "image/x-canon-cr3", "image/x-canon-crw", "image/x-nikon-nef",
        "image/x-sony-arw", "image/x-olympus-orf", "image/x-panasonic-rw2", "image/x-panasonic-raw",
        "image/x-fuji-raf", "image/x-pentax-pef", "image/x-minolta-mrw", "image/x-phaseone-iiq",
        "image/x-sigma-x3f", "image/x-samsung-srw", "image/x-dcraw",
    ]
}
