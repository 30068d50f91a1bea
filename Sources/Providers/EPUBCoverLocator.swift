/// Finds an EPUB's cover image: `META-INF/container.xml` names the package document, whose
/// manifest marks the cover (EPUB 3 `properties="cover-image"`, EPUB 2 `<meta name="cover">`),
/// else the first image in the manifest. A tolerant scan of the XML, not a validating parser.
public enum EPUBCoverLocator {
    /// The package document's path from container.xml.
    public static func packagePath(containerXML: String) -> String? {
        for tag in tags(named: "rootfile", in: containerXML) {
            if let path = attribute("full-path", in: tag) { return path }
        }
        return nil
    }

    /// The cover's path inside the archive, resolved against the package document's folder.
    public static func coverPath(packageXML: String, packagePath: String) -> String? {
        let items = tags(named: "item", in: packageXML)
        var href: String?
        if let item = items.first(where: { (attribute("properties", in: $0) ?? "").split(separator: " ").contains("cover-image") }) {
            href = attribute("href", in: item)
        }
        if href == nil, let meta = tags(named: "meta", in: packageXML).first(where: { attribute("name", in: $0) == "cover" }),
           let id = attribute("content", in: meta),
           let item = items.first(where: { attribute("id", in: $0) == id }) {
            href = attribute("href", in: item)
        }
        if href == nil, let item = items.first(where: { (attribute("media-type", in: $0) ?? "").hasPrefix("image/") }) {
            href = attribute("href", in: item)
        }
        guard let href else { return nil }
        let folder = packagePath.split(separator: "/").dropLast().joined(separator: "/")
        return normalize((folder.isEmpty ? "" : folder + "/") + percentDecoded(href))
    }

    /// Start tags `<name …>` (with or without a namespace prefix), as raw strings.
    static func tags(named name: String, in xml: String) -> [String] {
        var found: [String] = []
        var rest = xml[...]
        while let open = rest.firstIndex(of: "<"), found.count < 10_000 {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let tag = rest[rest.index(after: open)..<close]
            let tagName = tag.prefix { !$0.isWhitespace && $0 != "/" && $0 != ">" }
            if tagName == name || tagName.hasSuffix(":" + name) { found.append(String(tag)) }
            rest = rest[rest.index(after: close)...]
        }
        return found
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        for quote in ["\"", "'"] {
            for prefix in [" " + name + "=" + quote, "\n" + name + "=" + quote, "\t" + name + "=" + quote] {
                guard let start = tag.firstRange(of: prefix) else { continue }
                let valueStart = start.upperBound
                guard let end = tag[valueStart...].firstIndex(of: Character(quote)) else { continue }
                return xmlUnescaped(String(tag[valueStart..<end]))
            }
        }
        return nil
    }

    private static func xmlUnescaped(_ value: String) -> String {
        value.replacing("&quot;", with: "\"").replacing("&apos;", with: "'").replacing("&lt;", with: "<")
            .replacing("&gt;", with: ">").replacing("&amp;", with: "&")
    }

    private static func percentDecoded(_ value: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(value.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
               let decoded = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(decoded)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Removes `.` and `..` segments.
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }
}

