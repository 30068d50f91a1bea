import BrowserCore

/// A screen that keeps what is drawn on it, for tests: the characters of every cell and the
/// style they were drawn in. `snapshot(theme:)` writes both as text a person can read and diff.
final class RecordingScreen: TerminalScreen {
    let rows: Int
    let columns: Int
    private(set) var characters: [[Character]]
    private(set) var styles: [[Theme.Style]]
    private(set) var refreshes = 0
    /// Keys to play, first first (`TerminalScreen.readKey`).
    var keys: [KeyInput] = []
    /// Times the terminal was given to a program in the foreground.
    private(set) var suspensions = 0

    init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        characters = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        styles = Array(repeating: Array(repeating: Theme.Style(), count: columns), count: rows)
    }

    func erase() {
        characters = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        styles = Array(repeating: Array(repeating: Theme.Style(), count: columns), count: rows)
    }

    func refresh() { refreshes += 1 }
    var colors: Int { 256 }
    func start(preferring entry: String?) -> String? { nil }
    func stop() {}
    func updateSize() {}
    func suspend() { suspensions += 1 }
    func resume() {}
    func giveBack(_ keys: [UInt8]) {}
    func readKey() -> KeyInput? { keys.isEmpty ? nil : keys.removeFirst() }
    func invalidate(top: Int, count: Int) {}
    func clearAll() {}
    func linesMayMove() -> Bool { false }

    @discardableResult
    func text(_ string: String, row: Int, column: Int, width: Int, style: Theme.Style, fill: Bool, ellipsis: Bool) -> Int {
        guard row >= 0, row < rows, column < columns, width > 0 else { return 0 }
        let layout = CellText.layout(string, column: column, width: width, columns: columns, fill: fill, ellipsis: ellipsis, cellWidth: Self.cellWidth)
        for (scalar, x) in layout.cells where x >= 0 {
            characters[row][x] = Unicode.Scalar(scalar).map { Character($0) } ?? "?"
            styles[row][x] = style
            if Self.cellWidth(scalar) == 2, x + 1 < columns { characters[row][x + 1] = "\u{0}" }
        }
        for x in layout.blanks where x >= 0 {
            characters[row][x] = " "
            styles[row][x] = style
        }
        return layout.used
    }

    /// The text of one row (wide characters once, trailing spaces kept).
    func line(_ row: Int) -> String { String(characters[row].filter { $0 != "\u{0}" }) }

    /// The rows as text, then each row's styles as letters with a legend naming the theme part
    /// each letter stands for (`.` is the terminal's default).
    func snapshot(theme: Theme) -> String {
        var legend: [Theme.Style: Character] = [Theme.Style(): "."]
        var names: [Character: String] = [".": "default"]
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var text = (0..<rows).map { line($0).replacingTrailingSpaces() }
        text.append("")
        for row in 0..<rows {
            var styleLine = ""
            for style in styles[row] {
                if legend[style] == nil {
                    let letter = letters[min(legend.count - 1, letters.count - 1)]
                    legend[style] = letter
                    names[letter] = theme.partNames(for: style)
                }
                styleLine.append(legend[style]!)
            }
            text.append(styleLine)
        }
        text.append("")
        text += names.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }
        return text.joined(separator: "\n") + "\n"
    }

    func cellWidth(_ scalar: UInt32) -> Int { Self.cellWidth(scalar) }

    /// Cells a scalar takes: 0 for combining marks, 2 for East Asian wide characters and emoji
    /// (the common ranges of wcwidth, enough for what the views draw).
    static func cellWidth(_ scalar: UInt32) -> Int {
        switch scalar {
        case 0x300...0x36F, 0x200B...0x200F, 0xFE00...0xFE0F: return 0
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1FAFF, 0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }
}

private extension String {
    /// Trailing spaces shown as nothing, so snapshots do not end lines in blanks.
    func replacingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
