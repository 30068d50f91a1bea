import ThumbnailKit

/// iTerm2's inline images (iTerm2, WezTerm), through chafa. Drawn into the cells like sixel.
public struct ITermDriver: GraphicsDriver {
    public let cell: CellSize
    public var tmux: TmuxPane?

    public init(cell: CellSize, tmux: TmuxPane? = nil) {
        self.cell = cell
        self.tmux = tmux
    }

    public var mode: GraphicsMode { .iterm }
    public var drawsIntoCells: Bool { true }

    public func render(_ image: PixelImage, columns: Int, rows: Int, imageID: UInt32) -> TerminalPicture {
        let canvas = ChafaCanvas(image, columns: columns, rows: rows, cell: cell, kind: .iterm)
        return TerminalPicture(columns: canvas.columns, rows: canvas.rows, body: canvas.printed())
    }

    public func show(_ picture: TerminalPicture, row: Int, column: Int) -> (bytes: [UInt8], cells: CellRect) {
        (PixelSequencePlacement.bytes(picture.body, row: row, column: column, tmux: tmux), CellRect(row: row, column: column, rows: picture.rows, columns: picture.columns))
    }
}
