import BrowserCore

/// A grid of character cells the views draw into. The curses screen is the real one; the
/// recording screen keeps the cells for tests, so every view can be checked without a terminal.
protocol Screen: AnyObject {
    var rows: Int { get }
    var columns: Int { get }
    /// Blanks the whole grid before a frame is drawn.
    func erase()
    /// Puts what was drawn on the terminal.
    func refresh()
    /// These lines are repainted in full at the next refresh (a picture covered them).
    func invalidate(top: Int, count: Int)
    /// Everything is repainted at the next refresh.
    func clearAll()
    /// Whether the next refresh may scroll lines on the terminal (moving pictures drawn over them along).
    func linesMayMove() -> Bool
    /// Cells a character takes: 0 for combining marks, 2 for wide characters, else 1.
    func cellWidth(_ scalar: UInt32) -> Int
    /// Draws text at a cell, clipped to `width` cells (wide characters count two). With `fill`
    /// the rest of the width is blanked in the style; with `ellipsis` a cut ends in "…". Returns
    /// the cells used.
    @discardableResult
    func text(_ string: String, row: Int, column: Int, width: Int, style: Theme.Style, fill: Bool, ellipsis: Bool) -> Int
}

extension Screen {
    @discardableResult
    func text(_ string: String, row: Int, column: Int, width: Int, style: Theme.Style, fill: Bool = false) -> Int {
        text(string, row: row, column: column, width: width, style: style, fill: fill, ellipsis: false)
    }

    @discardableResult
    func text(_ string: String, row: Int, column: Int, width: Int, style: Theme.Style, ellipsis: Bool) -> Int {
        text(string, row: row, column: column, width: width, style: style, fill: false, ellipsis: ellipsis)
    }

    /// A rectangle blanked in `style`.
    func fill(row: Int, column: Int, width: Int, height: Int, style: Theme.Style) {
        for y in row..<(row + height) { text("", row: y, column: column, width: width, style: style, fill: true) }
    }
}

/// Where each character of a text goes in a row of cells: the one rule both screens follow.
enum CellText {
    /// The characters (Unicode scalars) to put and their columns, then the columns to blank.
    struct Layout {
        var cells: [(scalar: UInt32, column: Int)] = []
        var blanks: Range<Int> = 0..<0
        /// Cells used, blanks included.
        var used = 0
    }

    /// Lays out `string` from `column` within `width` cells of a row `columns` wide; `cellWidth`
    /// says how many cells a scalar takes (0 for combining marks, 2 for wide characters).
    static func layout(_ string: String, column: Int, width: Int, columns: Int, fill: Bool, ellipsis: Bool,
                       cellWidth: (UInt32) -> Int) -> Layout {
        var layout = Layout()
        let limit = min(columns, column + width)
        let scalars = string.unicodeScalars.map(\.value)
        let widths = scalars.map { value -> Int in
            let cells = max(0, cellWidth(value))
            return cells == 0 && value < 0x300 ? -1 : max(cells, 1)
        }
        let fits = !ellipsis || widths.reduce(0) { $0 + max($1, 0) } <= limit - column
        let textLimit = fits ? limit : limit - 1
        var x = column
        for (scalar, cells) in zip(scalars, widths) where cells >= 0 {
            if x + cells > textLimit { break }
            layout.cells.append((scalar, x))
            x += cells
        }
        if !fits && x < limit {
            layout.cells.append((0x2026, x))
            x += 1
        }
        layout.blanks = fill ? x..<max(x, limit) : x..<x
        layout.used = layout.blanks.upperBound - column
        return layout
    }
}
