/// One freedesktop `.thumbnailer` file: the command that makes thumbnails for a list of MIME
/// types, as GNOME, KDE and most file managers install them (`/usr/share/thumbnailers`).
///
/// ```ini
/// [Thumbnailer Entry]
/// TryExec=ffmpegthumbnailer
/// Exec=ffmpegthumbnailer -i %i -o %o -s %s -f
/// MimeType=video/mp4;video/x-matroska;
/// X-QLBrowse-MinimumDimension=64
/// ```
///
/// `X-QLBrowse-MinimumDimension` is qlbrowse's own key: below that box size (in pixels) the
/// command is not worth running and the generic icon is kept.
public struct ThumbnailerFile: Sendable, Equatable {
    /// The file's base name without `.thumbnailer` (`ffmpegthumbnailer`): the picture's source.
    public let name: String
    /// Where the file was read from.
    public let path: String
    public let tryExec: String?
    /// The raw `Exec` value (string escapes already resolved; quoting and field codes not yet).
    public let exec: String
    /// The MIME types listed, lower case, in file order.
    public let mimeTypes: [String]
    public let minimumDimension: Int?

    public init(name: String, path: String, tryExec: String?, exec: String, mimeTypes: [String], minimumDimension: Int?) {
        self.name = name
        self.path = path
        self.tryExec = tryExec
        self.exec = exec
        self.mimeTypes = mimeTypes
        self.minimumDimension = minimumDimension
    }

    /// Parses the text of a `.thumbnailer` file; nil when it has no `[Thumbnailer Entry]` group
    /// with an `Exec` and at least one MIME type.
    public static func parse(_ text: String, path: String) -> ThumbnailerFile? {
        var group = ""
        var keys: [String: String] = [:]
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                group = String(line.dropFirst().prefix { $0 != "]" })
                continue
            }
            guard group == "Thumbnailer Entry", let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmed(of: [" ", "\t"])
            // The first occurrence of a key counts; localised keys (`Name[de]`) are not needed here.
            if keys[key] == nil { keys[key] = unescape(line[line.index(after: equals)...].trimmed(of: [" ", "\t"])) }
        }
        let types = (keys["MimeType"] ?? "").split(separator: ";").map { $0.trimmed(of: [" ", "\t"]).lowercased() }.filter { !$0.isEmpty }
        guard let exec = keys["Exec"], !exec.isEmpty, !types.isEmpty else { return nil }
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let name = base.hasSuffix(".thumbnailer") ? String(base.dropLast(".thumbnailer".count)) : base
        let minimum = keys["X-QLBrowse-MinimumDimension"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        return ThumbnailerFile(name: name, path: path, tryExec: keys["TryExec"].flatMap { $0.isEmpty ? nil : $0 },
                               exec: exec, mimeTypes: types, minimumDimension: minimum)
    }

    /// The desktop-entry string escapes: `\s` `\n` `\t` `\r` `\\`. Other backslashes are kept,
    /// so the `Exec` quoting rules still see them.
    static func unescape(_ value: String) -> String {
        var out = ""
        var iterator = value.makeIterator()
        while let character = iterator.next() {
            guard character == "\\", let next = iterator.next() else { out.append(character); continue }
            switch next {
            case "s": out.append(" ")
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "\\": out.append("\\")
            default: out.append("\\"); out.append(next)
            }
        }
        return out
    }
}

extension StringProtocol {
    func trimmed(of set: Set<Character>) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
