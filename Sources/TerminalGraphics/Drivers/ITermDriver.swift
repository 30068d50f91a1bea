import ThumbnailKit

/// iTerm2's inline images (iTerm2, WezTerm), through chafa. Drawn into the cells like sixel.
public struct ITermDriver: ChafaSequenceDriver {
    public let cell: CellSize
    public var tmux: TmuxPane?

    public init(cell: CellSize, tmux: TmuxPane? = nil) {
        self.cell = cell
        self.tmux = tmux
    }

    public var mode: GraphicsMode { .iterm }
    var canvasKind: ChafaCanvas.Kind { .iterm }
}
