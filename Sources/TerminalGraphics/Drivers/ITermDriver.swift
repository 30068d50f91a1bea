import ThumbnailKit

/// iTerm2's inline images (iTerm2, WezTerm): the picture as PNG, scaled to the pixels of its
/// cells, in one `OSC 1337 ; File=` sequence (a third of the bytes chafa's iTerm2 output takes).
/// Drawn into the cells like sixel.
public struct ITermDriver: CursorSequenceDriver {
    public let cell: CellSize
    public var tmux: TmuxPane?

    public init(cell: CellSize, tmux: TmuxPane? = nil) {
        self.cell = cell
        self.tmux = tmux
    }

    public var mode: GraphicsMode { .iterm }

    public func render(_ image: PixelImage, columns: Int, rows: Int, imageID: UInt32) -> TerminalPicture {
        let fitted = PNGPicture(image, columns: columns, rows: rows, cell: cell)
        // Only the side that binds is given; the terminal keeps the picture's shape.
        let extent = fitted.widthBound ? "width=\(fitted.columns)" : "height=\(fitted.rows)"
        let body = Array("\u{1B}]1337;File=inline=1;size=\(fitted.png.count);\(extent);preserveAspectRatio=1:".utf8)
            + Base64.encode(fitted.png) + [0x07]
        return TerminalPicture(columns: fitted.columns, rows: fitted.rows, body: body)
    }
}
