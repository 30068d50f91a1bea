/// The desktop-entry syntax shared by `.thumbnailer` and `.previewer` files: `[Group]` headers,
/// `Key=Value` lines, `#` comments, the string escapes, `;`-separated lists. Only what those two
/// formats need (no localised keys, no line continuation).
enum DesktopEntryText {
    /// The keys of `group`, values unescaped. The first occurrence of a key counts. Split as
    /// bytes (`ASCIIText`: the syntax's characters are all ASCII).
    static func keys(_ text: String, group wanted: String) -> [String: String] {
        var group = ""
        var keys: [String: String] = [:]
        for raw in ASCIIText.lines(Array(text.utf8)) {
            let line = raw.drop(while: ASCIIText.isBlank)
            if line.isEmpty || ASCIIText.isComment(line) { continue }
            if line.first == UInt8(ascii: "[") {
                group = ASCIIText.string(line.dropFirst().prefix { $0 != UInt8(ascii: "]") })
                continue
            }
            guard group == wanted, let equals = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = ASCIIText.string(ASCIIText.trimmed(line[..<equals]))
            if keys[key] == nil { keys[key] = unescape(ASCIIText.string(ASCIIText.trimmed(line[(equals + 1)...]))) }
        }
        return keys
    }

    /// A `MimeType` value: lower case, blanks and empty items dropped, in file order.
    static func mimeTypes(_ value: String?) -> [String] {
        Array((value ?? "").utf8).split(separator: UInt8(ascii: ";")).map { ASCIIText.lowercased(ASCIIText.trimmed($0)) }.filter { !$0.isEmpty }
    }

    /// A desktop-entry boolean (`true`/`false`); nil when absent or anything else.
    static func boolean(_ value: String?) -> Bool? {
        switch value?.lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// The file's base name without `suffix` (`/usr/share/thumbnailers/x.thumbnailer` → `x`).
    static func name(of path: String, suffix: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        return base.hasSuffix(suffix) ? String(base.dropLast(suffix.count)) : base
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
