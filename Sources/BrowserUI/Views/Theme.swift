/// Colours and attributes for each part of the screen, loaded from a theme file.
///
/// Theme files are plain lines `part = FOREGROUND [on BACKGROUND] [bold] [reverse] [underline]`,
/// colours as 256-colour numbers or names (`default`, `black`, `red`, … `white`, `bright-red`, …).
public struct Theme: Sendable, Equatable {
    /// One part's look.
    public struct Style: Sendable, Hashable {
        public var foreground: Int32 = -1
        public var background: Int32 = -1
        public var bold = false
        public var reverse = false
        public var underline = false
        public var dim = false

        /// This style drawn over `base`: where it has no background of its own, `base`'s shows.
        public func on(_ base: Style) -> Style {
            var style = self
            if style.background < 0 { style.background = base.background }
            return style
        }

        public init(foreground: Int32 = -1, background: Int32 = -1, bold: Bool = false, reverse: Bool = false) {
            self.foreground = foreground
            self.background = background
            self.bold = bold
            self.reverse = reverse
        }
    }

    /// The parts of the screen a theme colours; the names are the ones theme files use.
    public enum Part: String, CaseIterable, Sendable {
        case header, status, selection, folder, file, link, image, video, audio, document, text
        case archive, hidden, size, date, border, title, message, error, filter, tile, help
    }

    public var styles: [Part: Style] = [:]

    public func style(_ part: Part) -> Style { styles[part] ?? Style() }

    /// The parts drawn in `style`, for test snapshots ("header", "folder/link", or the style itself).
    func partNames(for style: Style) -> String {
        let names = Part.allCases.filter { styles[$0] == style }.map(\.rawValue)
        if !names.isEmpty { return names.joined(separator: "/") }
        return "fg \(style.foreground) bg \(style.background)" + (style.bold ? " bold" : "") + (style.reverse ? " reverse" : "")
    }

    /// The default dark theme, built in so the browser always has one.
    public static let builtIn: Theme = parse(BuiltInThemes.dark).theme

    /// Parses a theme; unknown parts and bad lines are reported, not fatal.
    public static func parse(_ text: String) -> (theme: Theme, problems: [String]) {
        var theme = Theme()
        var problems: [String] = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?.trimmed ?? ""
            guard !line.isEmpty else { continue }
            let pieces = line.split(separator: "=", maxSplits: 1).map { String($0).trimmed }
            guard pieces.count == 2, let part = Part(rawValue: pieces[0]) else {
                problems.append("line \(number + 1): \(line)")
                continue
            }
            var style = Style()
            var words = pieces[1].split(separator: " ").map(String.init)[...]
            var target = 0
            while let word = words.popFirst() {
                switch word {
                case "on": target = 1
                case "bold": style.bold = true
                case "reverse": style.reverse = true
                case "underline": style.underline = true
                case "dim": style.dim = true
                default:
                    guard let color = colorNumber(word) else {
                        problems.append("line \(number + 1): unknown colour \(word)")
                        continue
                    }
                    if target == 0 { style.foreground = color } else { style.background = color }
                }
            }
            theme.styles[part] = style
        }
        return (theme, problems)
    }

    static func colorNumber(_ word: String) -> Int32? {
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        if word == "default" { return -1 }
        if let index = names.firstIndex(of: word) { return Int32(index) }
        if word.hasPrefix("bright-"), let index = names.firstIndex(of: String(word.dropFirst(7))) { return Int32(index + 8) }
        if let number = Int32(word), (0...255).contains(number) { return number }
        return nil
    }
}

extension String {
    var trimmed: String {
        var scalars = Substring(self)
        while scalars.first?.isWhitespace == true { scalars.removeFirst() }
        while scalars.last?.isWhitespace == true { scalars.removeLast() }
        return String(scalars)
    }
}
