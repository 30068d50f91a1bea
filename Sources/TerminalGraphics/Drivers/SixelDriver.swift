import ThumbnailKit

/// DEC sixel (xterm -ti vt340, foot, mlterm, WezTerm, Konsole…), through chafa. The picture becomes
/// part of the cells it is drawn over; inside tmux it goes through the passthrough envelope,
/// placed with the pane's offset on the outer terminal.
public struct SixelDriver: CursorSequenceDriver {
    public let cell: CellSize
    /// Inside tmux: where the pane is, so the picture lands on it (tmux does not move the outer cursor for passthrough).
    public var tmux: TmuxPane?
    /// The largest picture the terminal accepts: xterm drops a bigger sixel whole.
    public var limit: PixelSize?
    /// The terminal keeps a sixel as a picture over the text, as it keeps kitty's (Konsole):
    /// text, spaces and erases written over it leave it showing, and only kitty's delete command
    /// takes it down (issue 23: inside tmux, the list's photo stayed behind the grid after `v`).
    public var keepsPicturesOverText: Bool

    public init(cell: CellSize, tmux: TmuxPane? = nil, limit: PixelSize? = nil, keepsPicturesOverText: Bool = false) {
        self.cell = cell
        self.tmux = tmux
        self.limit = limit
        self.keepsPicturesOverText = keepsPicturesOverText
    }

    public var mode: GraphicsMode { .sixel }

    public func render(_ image: PixelImage, columns: Int, rows: Int, imageID: UInt32) -> TerminalPicture {
        let area = cellsWithinLimit(columns: columns, rows: rows)
        let canvas = ChafaCanvas(image, columns: area.columns, rows: area.rows, cell: cell, kind: .sixel)
        return TerminalPicture(columns: canvas.columns, rows: canvas.rows, body: canvas.printed())
    }

    /// The bytes that take a sixel down where repainting its cells does not. Inside tmux (through
    /// the passthrough) the picture's cells are erased on the outer terminal: tmux sends on only
    /// the cells that change in its own grid, so a repaint of unchanged blank cells never reaches
    /// the terminal and the picture stays (issue 23: foot kept the grid's top row above the help).
    /// A terminal that keeps sixels over the text (Konsole) is sent kitty's delete at the
    /// picture's top-left cell. Sent before the text of the frame is written.
    public func erase(_ picture: TerminalPicture, at cells: CellRect) -> [UInt8] {
        let top = cells.row + (tmux?.top ?? 0), left = cells.column + (tmux?.left ?? 0)
        var bytes: [UInt8] = []
        if keepsPicturesOverText { bytes += PNGPicture.command("a=d,d=p,x=\(left + 1),y=\(top + 1),q=2") }
        guard tmux != nil else { return bytes }
        bytes += EscapeSequence.saveCursor + EscapeSequence.resetAttributes
        for row in top..<(top + cells.rows) {
            bytes += EscapeSequence.moveTo(row: row, column: left) + Array("\u{1B}[\(cells.columns)X".utf8)
        }
        return TmuxPassthrough.wrap(bytes + EscapeSequence.restoreCursor)
    }

    public func eraseAll(freeing: Bool) -> [UInt8] {
        guard keepsPicturesOverText else { return [] }
        let bytes = PNGPicture.command("a=d,d=a,q=2")
        return tmux == nil ? bytes : TmuxPassthrough.wrap(bytes)
    }

    /// The part of a `columns`×`rows` area whose pixels stay within `limit`; sixel rows come in
    /// bands of six pixels, so the height is counted rounded up to the band.
    func cellsWithinLimit(columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        guard let limit else { return (columns, rows) }
        var rows = min(rows, max(1, limit.height / cell.height))
        while rows > 1, (rows * cell.height + 5) / 6 * 6 > limit.height { rows -= 1 }
        return (min(columns, max(1, limit.width / cell.width)), rows)
    }
}

/// A driver whose pictures are one escape sequence drawn at the cursor into the cells (sixel,
/// iTerm2): cursor saved, moved, the sequence, cursor restored. Inside tmux all of it goes
/// through the passthrough with the pane's offset added, since tmux hands the envelope to the
/// outer terminal wherever its cursor happens to be.
protocol CursorSequenceDriver: GraphicsDriver {
    var tmux: TmuxPane? { get }
}

extension CursorSequenceDriver {
    public var drawsIntoCells: Bool { true }

    public func show(_ picture: TerminalPicture, row: Int, column: Int) -> (bytes: [UInt8], cells: CellRect) {
        let placed: [UInt8]
        if let tmux {
            placed = TmuxPassthrough.wrap(EscapeSequence.saveCursor + EscapeSequence.moveTo(row: row + tmux.top, column: column + tmux.left)
                                          + picture.body + EscapeSequence.restoreCursor)
        } else {
            placed = EscapeSequence.saveCursor + EscapeSequence.moveTo(row: row, column: column) + picture.body + EscapeSequence.restoreCursor
        }
        return (placed, CellRect(row: row, column: column, rows: picture.rows, columns: picture.columns))
    }
}
