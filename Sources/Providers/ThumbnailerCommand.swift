import SystemKit
import ThumbnailKit

/// A `.thumbnailer` or `.previewer` `Exec` line turned into an argument vector: split with the desktop-entry
/// quoting rules, then each argument's field codes expanded. No shell ever sees it, so a file
/// name with spaces, quotes or `$(…)` stays one inert argument.
public enum ThumbnailerCommand {
    /// What the field codes stand for.
    public struct Values: Sendable {
        /// `%i`: the input file's absolute path.
        public var input: String
        /// `%o`: where the thumbnailer writes its PNG.
        public var output: String
        /// `%s`: the wanted size, the larger side of the box.
        public var size: Int
        /// `%m`: the input's MIME type.
        public var mimeType: String
        /// `%w`, `%h`: the box in pixels (previewers only; nil removes the code, as for thumbnailers).
        public var width: Int?
        public var height: Int?
        /// `%c`, `%r`: the box in terminal cells (previewers only).
        public var columns: Int?
        public var rows: Int?

        public init(input: String, output: String, size: Int, mimeType: String,
                    width: Int? = nil, height: Int? = nil, columns: Int? = nil, rows: Int? = nil) {
            self.input = input
            self.output = output
            self.size = size
            self.mimeType = mimeType
            self.width = width
            self.height = height
            self.columns = columns
            self.rows = rows
        }
    }

    /// The argument vector for `exec`, or nil when its quoting is broken or it names no program.
    public static func arguments(_ exec: String, _ values: Values) -> [String]? {
        guard let words = split(exec), !words.isEmpty else { return nil }
        let expanded = words.compactMap { expand($0, values) }
        return expanded.isEmpty || expanded[0].isEmpty ? nil : expanded
    }

    /// Splits an `Exec` value into words: blanks separate; `"…"` quotes, inside which `\"`, `` \` ``,
    /// `\$` and `\\` are escapes; outside quotes a backslash escapes the next character and `'…'`
    /// quotes literally (as GLib's `g_shell_parse_argv`, which GNOME uses, also accepts).
    /// Nil for an unterminated quote.
    public static func split(_ exec: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var characters = exec.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            case "\"":
                inWord = true
                var closed = false
                while let inner = characters.next() {
                    if inner == "\"" { closed = true; break }
                    if inner == "\\", let escaped = characters.next() {
                        if !"\"`$\\".contains(escaped) { current.append("\\") }
                        current.append(escaped)
                    } else {
                        current.append(inner)
                    }
                }
                guard closed else { return nil }
            case "'":
                inWord = true
                var closed = false
                while let inner = characters.next() {
                    if inner == "'" { closed = true; break }
                    current.append(inner)
                }
                guard closed else { return nil }
            case "\\":
                inWord = true
                if let escaped = characters.next() { current.append(escaped) }
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// One word with `%i %u %o %s %m %%` (and a previewer's `%w %h %c %r`) replaced. Other
    /// (deprecated or unknown, or not given) codes are removed, as the desktop-entry specification
    /// asks; a word that was nothing but such codes disappears.
    static func expand(_ word: String, _ values: Values) -> String? {
        guard word.contains("%") else { return word }
        var out = ""
        var onlyDropped = true
        var characters = word.makeIterator()
        while let character = characters.next() {
            guard character == "%" else { out.append(character); onlyDropped = false; continue }
            guard let code = characters.next() else { break }
            let number: Int? = switch code {
            case "w": values.width
            case "h": values.height
            case "c": values.columns
            case "r": values.rows
            default: nil
            }
            onlyDropped = onlyDropped && !"iuosm%".contains(code) && number == nil
            switch code {
            case "i": out += values.input
            case "u": out += FileURI.from(absolutePath: values.input)
            case "o": out += values.output
            case "s": out += String(values.size)
            case "m": out += values.mimeType
            case "w", "h", "c", "r": out += number.map(String.init) ?? ""
            case "%": out += "%"
            default: break
            }
        }
        return onlyDropped && out.isEmpty ? nil : out
    }
}
