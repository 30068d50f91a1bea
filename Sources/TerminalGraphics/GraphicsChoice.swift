/// Which driver draws pictures: a pure function of what is known about the terminal, the user's
/// `--graphics` first. Outside tmux the terminal's own protocol wins (kitty, iTerm2, sixel); inside
/// tmux only methods that survive tmux's redraws are picked automatically: kitty placeholders,
/// sixel (natively in tmux 3.4+, else through the passthrough), block art otherwise.
public enum GraphicsChoice {
    public static func mode(requested: GraphicsMode?, facts: TerminalFacts) -> GraphicsMode {
        if let requested {
            // Kitty placements float outside tmux's grid and vanish at its next redraw: inside tmux
            // kitty means its placeholders.
            if requested == .kitty && facts.tmux != nil { return .kittyPlaceholders }
            return requested
        }
        let term = facts.environment["TERM"] ?? ""
        if let tmux = facts.tmux {
            guard tmux.hasPassthrough || tmux.drawsSixelItself else { return .symbols }
            if facts.showsKittyPlaceholders { return .kittyPlaceholders }
            if facts.drawsSixel { return .sixel }
            return .symbols
        }
        if term == "dumb" || term.isEmpty { return .off }
        if facts.speaksKittyGraphics { return .kitty }
        let program = facts.environment["TERM_PROGRAM"]
        if program == "WezTerm" || program == "iTerm.app" || facts.environment["LC_TERMINAL"] == "iTerm2" { return .iterm }
        if facts.drawsSixel { return .sixel }
        return .symbols
    }

    /// The driver for `mode` on this terminal, with its cell size; block art at `symbolsWork`
    /// (chafa's effort per cell: the browser's by default).
    public static func driver(_ mode: GraphicsMode, facts: TerminalFacts, cell: CellSize,
                              symbolsWork: Double = SymbolsDriver.browserWork) -> (any GraphicsDriver)? {
        let pane = facts.tmux.flatMap { $0.drawsSixelItself && mode == .sixel ? nil : $0.pane }
        switch mode {
        case .kitty: return KittyDriver(cell: cell)
        case .kittyPlaceholders: return KittyPlaceholderDriver(cell: cell, throughTmux: facts.tmux != nil)
        case .sixel: return SixelDriver(cell: cell, tmux: pane, limit: facts.sixelLimit,
                                        keepsPicturesOverText: facts.speaksKittyGraphics && !facts.showsKittyPlaceholders)
        case .iterm: return ITermDriver(cell: cell, tmux: pane)
        case .symbols: return SymbolsDriver(cell: cell, colors: facts.symbolColors, workFactor: symbolsWork)
        case .off: return nil
        }
    }
}
