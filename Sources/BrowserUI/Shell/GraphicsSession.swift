import TerminalGraphics

/// The terminal's graphics for one run of the browser: what was found out about the terminal,
/// the driver chosen from it, and inside tmux the pane's `allow-passthrough`, turned on for
/// the pane while needed and put back on quit.
final class GraphicsSession {
    private(set) var facts: TerminalFacts
    private(set) var mode = GraphicsMode.off
    private let requested: GraphicsMode?
    private let tmux: TmuxClient?
    /// The pane's `allow-passthrough` as it was, to put back.
    private var passthroughToRestore: String?

    /// Probes the terminal (before the screen is taken over). Inside tmux the outer terminal is
    /// asked through the passthrough, so it is turned on (for this pane only) before asking.
    /// `asksColours`: ask even when the driver was chosen, for the terminal's background (OSC 11).
    init(requested: GraphicsMode?, environment: [String: String], asksColours: Bool = false) {
        self.requested = requested
        tmux = TmuxClient(environment: environment)
        if let tmux, requested != .off && requested != .symbols { passthroughToRestore = tmux.enablePassthrough() }
        facts = TerminalProbe.facts(environment: environment, asks: requested == nil || asksColours, graphics: requested == nil)
    }

    /// Picks the driver from the facts (once ncurses knows the colours). After a resize the
    /// tmux pane may have moved, so tmux is asked where it is now; the cell size is read again.
    func chooseDriver(terminfoColors: Int, afterResize: Bool) -> (driver: (any GraphicsDriver)?, cell: CellSize) {
        facts.terminfoColors = terminfoColors
        if afterResize, let tmux, facts.tmux != nil, let origin = tmux.paneOrigin() { facts.tmux?.pane = origin }
        mode = GraphicsChoice.mode(requested: requested, facts: facts)
        let cell = TerminalProbe.cellSize()
        if let tmux, let previous = passthroughToRestore, !needsPassthrough {
            tmux.restorePassthrough(previous)
            passthroughToRestore = nil
        }
        return (GraphicsChoice.driver(mode, facts: facts, cell: cell), cell)
    }

    /// Puts the pane's passthrough back as it was.
    func restore() {
        if let tmux, let previous = passthroughToRestore { tmux.restorePassthrough(previous) }
        passthroughToRestore = nil
    }

    /// Inside tmux, every driver but block art (and sixel when tmux draws it itself) goes through the passthrough.
    private var needsPassthrough: Bool {
        guard let tmuxFacts = facts.tmux else { return false }
        switch mode {
        case .kittyPlaceholders, .iterm, .kitty: return true
        case .sixel: return !tmuxFacts.drawsSixelItself
        case .symbols, .off: return false
        }
    }

    /// One line for the log: what was chosen and why.
    var description: String {
        "graphics \(mode.rawValue) (TERM=\(facts.environment["TERM"] ?? ""), outer \(facts.outerTerm), "
            + "version \(facts.terminalVersion ?? facts.tmux?.clientTermType ?? "?"), device attributes \(facts.deviceAttributes.map { "\($0)" } ?? "none"), "
            + "kitty graphics \(facts.answersKittyGraphics), background \(facts.background.map { "\($0.red),\($0.green),\($0.blue)" } ?? "?"), tmux \(facts.tmux.map { "\($0.version) \($0.clientFeatures.sorted())" } ?? "no"))"
    }
}
