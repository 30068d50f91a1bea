import ThumbnailKit

/// Block art: pictures drawn with block and border characters in colour, through chafa. Works on
/// every terminal and inside tmux; the colours follow what the terminal can show (8, 16, 256 or
/// truecolor), each cell written with its own foreground and background.
public struct SymbolsDriver: GraphicsDriver {
    public let cell: CellSize
    /// 8, 16, 256, or `SymbolsDriver.truecolor`.
    public let colors: Int
    /// How hard chafa works on each cell, 0…1 (its command line's `-w 1…9` is 0, 0.125 … 1).
    public let workFactor: Double

    public static let truecolor = 1 << 24
    /// The browser's effort: its pictures are small and encoded off the UI thread.
    public static let browserWork = 0.8
    /// chafa's own default (its command line's `-w 5`).
    public static let chafaDefaultWork = 0.5

    public init(cell: CellSize, colors: Int, workFactor: Double = SymbolsDriver.browserWork) {
        self.cell = cell
        self.colors = colors
        self.workFactor = workFactor
    }

    public var mode: GraphicsMode { .symbols }
    public var drawsIntoCells: Bool { true }

    public func render(_ image: PixelImage, columns: Int, rows: Int, imageID: UInt32) -> TerminalPicture {
        let canvas = ChafaCanvas(image, columns: columns, rows: rows, cell: cell, kind: .symbols(colors: colors, work: workFactor))
        var lines: [[UInt8]] = []
        lines.reserveCapacity(canvas.rows)
        for y in 0..<canvas.rows {
            var line: [UInt8] = []
            var previous: ChafaCanvas.Cell?
            for x in 0..<canvas.columns {
                let cell = canvas.cell(x: x, y: y)
                if previous?.foreground != cell.foreground || previous?.background != cell.background {
                    line += Array("\u{1B}[0;\(Self.parameters(foreground: cell.foreground, background: cell.background, colors: colors))m".utf8)
                }
                EscapeSequence.utf8(cell.character == 0 ? 0x20 : cell.character, into: &line)
                previous = cell
            }
            lines.append(line + EscapeSequence.resetAttributes)
        }
        return TerminalPicture(columns: canvas.columns, rows: canvas.rows, lines: lines)
    }

    public func show(_ picture: TerminalPicture, row: Int, column: Int) -> (bytes: [UInt8], cells: CellRect) {
        (EscapeSequence.lines(picture.lines, row: row, column: column), CellRect(row: row, column: column, rows: picture.rows, columns: picture.columns))
    }

    /// SGR parameters for a cell's colours: `38;2;r;g;b` in truecolor, `38;5;n` in 256 colours,
    /// `30–37`/`90–97` (and 40–47/100–107) in 16 and 8; 39/49 for the terminal's default.
    static func parameters(foreground: Int32, background: Int32, colors: Int) -> String {
        "\(parameter(foreground, colors: colors, base: 30, bright: 90, extended: 38));\(parameter(background, colors: colors, base: 40, bright: 100, extended: 48))"
    }

    private static func parameter(_ color: Int32, colors: Int, base: Int, bright: Int, extended: Int) -> String {
        if color < 0 { return "\(base + 9)" }
        if colors > 256 { return "\(extended);2;\((color >> 16) & 0xFF);\((color >> 8) & 0xFF);\(color & 0xFF)" }
        if colors >= 256 { return "\(extended);5;\(color)" }
        let index = Int(color) & 15
        return index < 8 ? "\(base + index)" : "\(bright + index - 8)"
    }
}
