import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

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
    /// The terminal's default background and foreground (OSC 11 and OSC 10), when it answered.
    public var background: RGBA?
    public var foreground: RGBA?
    /// Keys the user typed before the terminal had answered (the probe read them with the
    /// answers): the browser hands them to its screen, so a key pressed at start is not lost.
    public var typedAhead: [UInt8] = []

    public init(environment: [String: String], deviceAttributes: [Int]? = nil, answersKittyGraphics: Bool = false,
                terminalVersion: String? = nil, tmux: TmuxFacts? = nil, terminfoColors: Int = 256) {
        self.environment = environment
        self.deviceAttributes = deviceAttributes
        self.answersKittyGraphics = answersKittyGraphics
        self.terminalVersion = terminalVersion
        self.tmux = tmux
        self.terminfoColors = terminfoColors
    }

    /// The terminal's background is light: it said so (OSC 11), by its brightness, or brighter than
    /// its text when it also said that; nil when it did not answer (dark is assumed then).
    public var hasLightBackground: Bool? {
        guard let background else { return nil }
        let light = Self.luminance(background)
        if let foreground { return light > Self.luminance(foreground) && light > 0.2 }
        return light > 0.5
    }

    /// Relative luminance (WCAG), 0 for black to 1 for white.
    public static func luminance(_ colour: RGBA) -> Double {
        func channel(_ value: UInt8) -> Double {
            let c = Double(value) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(colour.red) + 0.7152 * channel(colour.green) + 0.0722 * channel(colour.blue)
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

    /// Colours block art may use, from what the terminal is rather than from TERM alone (Debian's
    /// xterm runs with TERM=xterm, 8 colours in terminfo, and draws 256). Inside tmux, tmux
    /// re-encodes every colour for the outer terminal: truecolor passes when tmux says the outer
    /// terminal has RGB, else tmux maps to the outer terminal's 256 (or 8) colours, so those
    /// chosen by chafa for the picture beat truecolor mapped by tmux (and the pane's TERM,
    /// `screen` by default, says nothing about the terminal that draws). Outside tmux: COLORTERM, the terminal's XTVERSION and device
    /// attributes, and terminfo, whichever says more.
    public var symbolColors: Int {
        if let tmux { return tmux.outerColors }
        let colorterm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorterm == "truecolor" || colorterm == "24bit" { return SymbolsDriver.truecolor }
        let fromTerminfo = terminfoColors >= 256 ? 256 : terminfoColors >= 16 ? 16 : 8
        return max(fromTerminfo, answeredColors)
    }

    /// A terminfo entry with the colours of the terminal that draws, when TERM says otherwise:
    /// xterm-256color for TERM=xterm when the terminal answered as one with 256 colours or more
    /// (Debian's xterm), `screen-256color`/`tmux-256color` inside tmux for `screen`/`tmux` when
    /// tmux passes 256 colours on to the outer terminal (it takes them from any pane). When tmux
    /// maps them to 8 (mlterm's and Konsole's entries say 8), `screen`: the browser maps them itself.
    public var textTerm: String? {
        let term = environment["TERM"] ?? ""
        if let tmux {
            if (term == "screen" || term == "tmux") && tmux.outerColors >= 256 { return term + "-256color" }
            // tmux would map the themes' 256 colours to the outer terminal's 8 itself (greys
            // to white): 8 colours for ncurses, mapped by the browser, greys kept grey.
            if (term.hasPrefix("screen") || term.hasPrefix("tmux")) && term.contains("256") && tmux.outerColors < 256 { return "screen" }
            return nil
        }
        return term == "xterm" && answeredColors >= 256 ? "xterm-256color" : nil
    }

    /// Colours the terminal's own answers vouch for: truecolor for those known to draw it, 256 for
    /// any other terminal that answers XTVERSION (xterm among them) or whose device attributes
    /// include 22 (ANSI colour, which xterm, VTE and the like report); 0 when it said nothing.
    var answeredColors: Int {
        let truecolor = ["kitty(", "ghostty", "wezterm", "foot(", "konsole", "contour", "iterm2", "mintty", "xterm.js", "vte("]
        let version = (terminalVersion ?? "").lowercased()
        if truecolor.contains(where: version.hasPrefix) { return SymbolsDriver.truecolor }
        if !version.isEmpty || deviceAttributes?.contains(22) == true { return 256 }
        return 0
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
    /// Colours in the outer terminal's terminfo entry (`client_termname`), when known: tmux maps
    /// every colour down to these unless told better (RGB, the 256 feature). mlterm's and
    /// Konsole's entries say 8.
    public var clientColors: Int?

    public init(version: [Int], clientTerm: String, clientTermType: String = "", clientFeatures: Set<String> = [], pane: TmuxPane = TmuxPane(top: 0, left: 0)) {
        self.version = version
        self.clientTerm = clientTerm
        self.clientTermType = clientTermType
        self.clientFeatures = clientFeatures
        self.pane = pane
    }

    /// Colours tmux sends the outer terminal: truecolor with RGB, 256 with the 256 feature or a
    /// terminfo entry that says 256, else what the entry says (8 when unknown entries say nothing).
    public var outerColors: Int {
        if clientFeatures.contains("RGB") { return SymbolsDriver.truecolor }
        if clientFeatures.contains("256") { return 256 }
        let colors = clientColors ?? 256
        return colors >= 256 ? 256 : colors >= 16 ? 16 : 8
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
