import ThumbnailKit

/// What is known about the terminal the browser runs in: from the environment, from the
/// terminal's own answers to queries, and, inside tmux, from tmux about the terminal around it.
/// The graphics driver is a pure function of these (`GraphicsChoice`).
public struct TerminalFacts: Sendable, Equatable {
    /// The variables that name terminals: TERM, COLORTERM, TERM_PROGRAM, LC_TERMINAL, KITTY_WINDOW_ID, TMUX…
    public var environment: [String: String]
    /// The primary device attributes of the terminal that draws (inside tmux: the outer one,
    /// asked through the passthrough); attribute 4 means sixel.
    public var deviceAttributes: [Int]?
    /// The terminal answered kitty's graphics query.
    public var answersKittyGraphics = false
    /// The terminal's name and version from XTVERSION (`kitty(0.26.5)`, `XTerm(379)`), or tmux's `client_termtype`.
    public var terminalVersion: String?
    /// Inside tmux: what tmux says about itself and the client terminal.
    public var tmux: TmuxFacts?
    /// Colours ncurses found in the terminfo entry (8, 16, 256).
    public var terminfoColors = 256
    /// The largest sixel picture the terminal said it accepts (XTSMGRAPHICS), when it answered.
    public var sixelGeometry: PixelSize?

    public init(environment: [String: String], deviceAttributes: [Int]? = nil, answersKittyGraphics: Bool = false,
                terminalVersion: String? = nil, tmux: TmuxFacts? = nil, terminfoColors: Int = 256) {
        self.environment = environment
        self.deviceAttributes = deviceAttributes
        self.answersKittyGraphics = answersKittyGraphics
        self.terminalVersion = terminalVersion
        self.tmux = tmux
        self.terminfoColors = terminfoColors
    }

    /// The name of the terminal that finally draws the pixels: tmux's client terminal inside tmux.
    public var outerTerm: String { tmux?.clientTerm ?? environment["TERM"] ?? "" }

    /// The terminal's version string, lower-cased: XTVERSION, else tmux's `client_termtype`.
    var version: String { (terminalVersion ?? tmux?.clientTermType ?? "").lowercased() }

    /// The terminal speaks kitty's graphics protocol.
    public var speaksKittyGraphics: Bool {
        if answersKittyGraphics { return true }
        let term = outerTerm
        if term == "xterm-kitty" || term == "xterm-ghostty" || version.hasPrefix("kitty") || version.hasPrefix("ghostty") { return true }
        return tmux == nil && (environment["KITTY_WINDOW_ID"] != nil || environment["TERM_PROGRAM"] == "ghostty")
    }

    /// The terminal shows kitty's Unicode placeholders: kitty from 0.28, Ghostty.
    public var showsKittyPlaceholders: Bool {
        if version.hasPrefix("ghostty") || outerTerm == "xterm-ghostty" || (tmux == nil && environment["TERM_PROGRAM"] == "ghostty") { return true }
        guard version.hasPrefix("kitty(") else { return false }
        let numbers = version.dropFirst("kitty(".count).prefix { $0 != ")" }.split(separator: ".").compactMap { Int($0) }
        guard numbers.count >= 2 else { return false }
        return numbers[0] > 0 || numbers[1] >= 28
    }

    /// The terminal draws sixel: it says so (device attribute 4), or tmux says so, or it is one known to.
    public var drawsSixel: Bool {
        if deviceAttributes?.contains(4) == true { return true }
        if tmux?.clientFeatures.contains("sixel") == true { return true }
        let term = outerTerm
        return term.hasPrefix("foot") || term.hasPrefix("mlterm") || version.hasPrefix("foot") || version.hasPrefix("mlterm")
    }

    /// The largest sixel picture to send: what the terminal said, else xterm's default when it is
    /// xterm (1000×1000; xterm drops a larger sixel whole, leaving the cells blank), else no limit.
    public var sixelLimit: PixelSize? {
        if let sixelGeometry { return sixelGeometry }
        return version.hasPrefix("xterm(") ? PixelSize(width: 1000, height: 1000) : nil
    }

    /// Colours block art may use: truecolor when COLORTERM says so (or tmux passes RGB on), else the terminfo count.
    public var symbolColors: Int {
        let colorterm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorterm == "truecolor" || colorterm == "24bit" || tmux?.clientFeatures.contains("RGB") == true { return SymbolsDriver.truecolor }
        return terminfoColors >= 256 ? 256 : terminfoColors >= 16 ? 16 : 8
    }
}

/// What tmux says about itself and the terminal its client runs in (`display-message -p`).
public struct TmuxFacts: Sendable, Equatable {
    /// tmux's version, as numbers: 3.3a is [3, 3].
    public var version: [Int]
    /// `#{client_termname}`: the outer terminal's TERM (tmux hides it from the pane).
    public var clientTerm: String
    /// `#{client_termtype}`: the outer terminal's XTVERSION answer, when it gave one.
    public var clientTermType: String
    /// `#{client_termfeatures}`: RGB, sixel, …
    public var clientFeatures: Set<String>
    /// Where the pane is on the outer terminal.
    public var pane: TmuxPane

    public init(version: [Int], clientTerm: String, clientTermType: String = "", clientFeatures: Set<String> = [], pane: TmuxPane = TmuxPane(top: 0, left: 0)) {
        self.version = version
        self.clientTerm = clientTerm
        self.clientTermType = clientTermType
        self.clientFeatures = clientFeatures
        self.pane = pane
    }

    /// tmux draws sixel itself (3.4 and newer, built with sixel, on a sixel terminal): no passthrough needed.
    public var drawsSixelItself: Bool { version.lexicographicallyPrecedes([3, 4]) == false && clientFeatures.contains("sixel") }

    /// Passthrough (`allow-passthrough`) exists from tmux 3.3.
    public var hasPassthrough: Bool { !version.lexicographicallyPrecedes([3, 3]) }

    /// Parses `display-message -p` output in the order `TmuxClient.format` asks for.
    public static func parse(_ line: String) -> TmuxFacts? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 6 else { return nil }
        let version = fields[0].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard !version.isEmpty else { return nil }
        // pane_top counts from the top of the window; a status line at the top sits above it.
        let statusOnTop = fields.count >= 8 && fields[6] != "off" && fields[6] != "0" && fields[7] == "top" ? 1 : 0
        return TmuxFacts(version: version, clientTerm: fields[1], clientTermType: fields[2],
                         clientFeatures: Set(fields[3].split(separator: ",").map(String.init)),
                         pane: TmuxPane(top: (Int(fields[4]) ?? 0) + statusOnTop, left: Int(fields[5]) ?? 0))
    }
}
