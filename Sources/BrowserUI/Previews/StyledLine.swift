import BrowserCore

/// A line of text in runs of one style each: what a syntax highlighter printed, read back from
/// its colour codes (SGR only; anything else it printed is shown escaped, never sent raw).
struct StyledLine: Equatable, Sendable {
    struct Run: Equatable, Sendable {
        var text: String
        var style: Theme.Style
    }

    var runs: [Run]

    init(runs: [Run]) { self.runs = runs }

    /// Plain text in the default style.
    init(plain text: String) { runs = text.isEmpty ? [] : [Run(text: text, style: Theme.Style())] }

    var text: String { runs.map(\.text).joined() }

    /// Reads a highlighter's line: `ESC [ … m` sequences set the style of the text after them.
    /// The text itself was made visible before highlighting, so any other escape left is the
    /// highlighter's and is dropped.
    init(highlighted line: String) {
        var runs: [Run] = []
        var style = Theme.Style()
        var text = ""
        var scalars = line.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\u{1B}" else {
                if scalar.value >= 0x20 && scalar.value != 0x7F { text.unicodeScalars.append(scalar) }
                continue
            }
            guard scalars.first == "[" else { continue }
            scalars.removeFirst()
            var parameters = ""
            while let next = scalars.first, next.value >= 0x30 && next.value <= 0x3F { parameters.unicodeScalars.append(next); scalars.removeFirst() }
            guard let final = scalars.popFirst(), final == "m" else { continue }
            if !text.isEmpty { runs.append(Run(text: text, style: style)); text = "" }
            style = Self.apply(parameters, to: style)
        }
        if !text.isEmpty { runs.append(Run(text: text, style: style)) }
        self.runs = runs
    }

    /// The style after one SGR sequence's parameters.
    static func apply(_ parameters: String, to base: Theme.Style) -> Theme.Style {
        var style = base
        var numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
        if numbers.isEmpty { numbers = [0] }
        while let number = numbers.popFirst() {
            switch number {
            case 0: style = Theme.Style()
            case 1: style.bold = true
            case 2: style.dim = true
            case 4: style.underline = true
            case 7: style.reverse = true
            case 22: style.bold = false; style.dim = false
            case 24: style.underline = false
            case 27: style.reverse = false
            case 30...37: style.foreground = Int32(number - 30)
            case 90...97: style.foreground = Int32(number - 90 + 8)
            case 39: style.foreground = -1
            case 40...47: style.background = Int32(number - 40)
            case 100...107: style.background = Int32(number - 100 + 8)
            case 49: style.background = -1
            case 38, 48:
                let color = extendedColor(&numbers)
                if let color { if number == 38 { style.foreground = color } else { style.background = color } }
            default: break
            }
        }
        return style
    }

    /// `5;n` (256 colours) or `2;r;g;b` (true colour, brought to the nearest of 256).
    private static func extendedColor(_ numbers: inout ArraySlice<Int>) -> Int32? {
        switch numbers.popFirst() {
        case 5: return numbers.popFirst().map { Int32(min(255, max(0, $0))) }
        case 2:
            let red = numbers.popFirst() ?? 0, green = numbers.popFirst() ?? 0, blue = numbers.popFirst() ?? 0
            return Int32(ColorPalette.nearest256(red: red, green: green, blue: blue))
        default: return nil
        }
    }
}
