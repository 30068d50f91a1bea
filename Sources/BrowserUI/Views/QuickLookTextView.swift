import BrowserCore
import SystemKit

/// A text file in Quick Look: line numbers, then the lines from where the user scrolled, in
/// their syntax colours; long lines wrap, or are cut with a marker (`w` switches).
struct QuickLookTextView {
    let context: ViewContext

    /// Draws from `position.line` into `rows` rows from `top`; returns the last line shown.
    @discardableResult
    func draw(_ page: TextPage?, position: QuickLookPosition, top: Int, rows: Int, columns: Int) -> Int? {
        let screen = context.screen
        guard let page, page.problem == nil, page.covers(position.line..<(position.line + 1)) else {
            screen.text(page?.problem ?? "reading…", row: top, column: 1, width: columns - 2, style: context.style(page?.problem == nil ? .hidden : .error))
            return nil
        }
        let lastNumber = min(position.line + rows, page.total ?? Int.max)
        let gutter = max(3, String(lastNumber).count) + 1
        let width = columns - gutter - 1
        var row = top, line = position.line, lastShown: Int?
        while row < top + rows, line - page.first < page.lines.count, width > 0 {
            let number = String(line + 1)
            screen.text(String(repeating: " ", count: gutter - 1 - number.count) + number, row: row, column: 0, width: gutter, style: context.style(.hidden))
            let pieces = Self.layout(page.lines[line - page.first], width: width, wraps: position.wraps, cellWidth: screen.cellWidth)
            for (index, piece) in pieces.enumerated() where row < top + rows {
                var column = gutter
                for run in piece.runs { column += screen.text(run.text, row: row, column: column, width: columns - column, style: run.style) }
                if piece.isCut { screen.text("→", row: row, column: columns - 1, width: 1, style: context.style(.hidden)) }
                if index < pieces.count - 1 { row += 1 }
            }
            lastShown = line
            row += 1
            line += 1
        }
        return lastShown
    }

    /// One screen row of a line: its runs, and whether the line went on past the row's end.
    struct Piece: Equatable {
        var runs: [StyledLine.Run] = []
        var isCut = false
    }

    /// Splits a line into rows of `width` cells: every row when it wraps, the first (marked
    /// when cut) when it does not.
    static func layout(_ line: StyledLine, width: Int, wraps: Bool, cellWidth: (UInt32) -> Int) -> [Piece] {
        var pieces = [Piece()], used = 0
        for run in line.runs {
            var text = ""
            for scalar in run.text.unicodeScalars {
                let cells = max(0, cellWidth(scalar.value))
                if used + cells > (wraps ? width : width - 1) {
                    if !wraps {
                        if !text.isEmpty { pieces[0].runs.append(.init(text: text, style: run.style)) }
                        pieces[0].isCut = true
                        return pieces
                    }
                    if !text.isEmpty { pieces[pieces.count - 1].runs.append(.init(text: text, style: run.style)) }
                    pieces.append(Piece())
                    text = ""
                    used = 0
                }
                text.unicodeScalars.append(scalar)
                used += cells
            }
            if !text.isEmpty { pieces[pieces.count - 1].runs.append(.init(text: text, style: run.style)) }
        }
        return pieces
    }
}
