import Testing
import ThumbnailKit
@testable import TerminalGraphics

@Suite struct GraphicsModeTests {
    private func facts(_ environment: [String: String], attributes: [Int]? = nil, version: String? = nil, tmux: TmuxFacts? = nil) -> TerminalFacts {
        TerminalFacts(environment: environment, deviceAttributes: attributes, terminalVersion: version, tmux: tmux)
    }

    @Test func theUsersChoiceWins() {
        #expect(GraphicsChoice.mode(requested: .off, facts: facts(["KITTY_WINDOW_ID": "1"], attributes: [4])) == .off)
        #expect(GraphicsChoice.mode(requested: .sixel, facts: facts(["TERM": "xterm-kitty"])) == .sixel)
    }

    @Test func environmentAndAnswersNameTheProtocol() {
        #expect(GraphicsChoice.mode(requested: nil, facts: facts(["TERM": "xterm-kitty"])) == .kitty)
        #expect(GraphicsChoice.mode(requested: nil, facts: facts(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"])) == .iterm)
        var answered = facts(["TERM": "xterm-256color"])
        answered.answersKittyGraphics = true
        #expect(GraphicsChoice.mode(requested: nil, facts: answered) == .kitty, "a terminal that answers kitty's query speaks it")
        #expect(GraphicsChoice.mode(requested: nil, facts: facts(["TERM": "dumb"])) == .off)
    }

    @Test func sixelComesFromTheTerminalsOwnAnswer() {
        #expect(GraphicsChoice.mode(requested: nil, facts: facts(["TERM": "xterm"], attributes: [63, 1, 2, 4, 6, 9])) == .sixel)
        #expect(GraphicsChoice.mode(requested: nil, facts: facts(["TERM": "xterm"], attributes: [63, 1, 2, 6])) == .symbols)
    }

    @Test func insideTmuxOnlyWhatSurvivesItsRedrawsIsChosen() {
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/x,1,0", "TMUX_PANE": "%1"]
        let kitty = TmuxFacts(version: [3, 3], clientTerm: "xterm-kitty", clientTermType: "kitty(0.35.2)")
        #expect(GraphicsChoice.mode(requested: nil, facts: facts(env, tmux: kitty)) == .kittyPlaceholders)
        // Debian's kitty 0.26 has no placeholders, and its placements would not survive tmux.
        let oldKitty = TmuxFacts(version: [3, 3], clientTerm: "xterm-kitty", clientTermType: "kitty(0.26.5)")
        #expect(GraphicsChoice.mode(requested: nil, facts: facts(env, tmux: oldKitty)) == .symbols)
        #expect(GraphicsChoice.mode(requested: .kitty, facts: facts(env, tmux: oldKitty)) == .kittyPlaceholders)
        // A sixel terminal outside answers through the passthrough.
        let xterm = TmuxFacts(version: [3, 3], clientTerm: "xterm", clientTermType: "XTerm(379)", clientFeatures: ["RGB"])
        #expect(GraphicsChoice.mode(requested: nil, facts: facts(env, attributes: [63, 1, 2, 4], tmux: xterm)) == .sixel)
        #expect(GraphicsChoice.mode(requested: nil, facts: facts(env, tmux: xterm)) == .symbols)
        // tmux before 3.3 has no passthrough.
        let old = TmuxFacts(version: [3, 2], clientTerm: "xterm-kitty", clientTermType: "kitty(0.35.2)")
        #expect(GraphicsChoice.mode(requested: nil, facts: facts(env, tmux: old)) == .symbols)
    }

    @Test func tmuxAnswersAreParsed() throws {
        let parsed = try #require(TmuxFacts.parse("3.3a\txterm\tXTerm(379)\t256,RGB,title\t5\t61\ton\ttop"))
        #expect(parsed.version == [3, 3] && parsed.clientTerm == "xterm" && parsed.clientFeatures.contains("RGB"))
        #expect(parsed.pane == TmuxPane(top: 6, left: 61), "a status line at the top moves the pane down a row")
        #expect(TmuxFacts.parse("3.3a\t\t\t\t0\t0\ton\tbottom")?.pane == TmuxPane(top: 0, left: 0))
        #expect(TmuxFacts.parse("garbage") == nil)
    }

    @Test func blockArtColoursFollowTheTerminal() {
        #expect(facts(["COLORTERM": "truecolor"]).symbolColors == SymbolsDriver.truecolor)
        var sixteen = facts(["TERM": "xterm-16color"])
        sixteen.terminfoColors = 16
        #expect(sixteen.symbolColors == 16)
        #expect(facts(["TERM": "tmux-256color"], tmux: TmuxFacts(version: [3, 3], clientTerm: "xterm", clientFeatures: ["RGB"])).symbolColors == SymbolsDriver.truecolor)
    }

    /// Issue 23: Debian's xterm (TERM=xterm, 8 colours in terminfo) answered XTerm(379) and got
    /// 8-colour block art; tmux in a terminal without graphics (the pane's TERM `screen`) got
    /// 8 colours too, almost grey.
    @Test func blockArtColoursComeFromWhatTheTerminalIs() {
        var xterm = facts(["TERM": "xterm"], attributes: [64, 1, 2, 6, 9, 15, 16, 17, 18, 21, 22, 28], version: "XTerm(379)")
        xterm.terminfoColors = 8
        #expect(xterm.symbolColors >= 256)
        var daOnly = facts(["TERM": "xterm"], attributes: [64, 1, 2, 6, 22])
        daOnly.terminfoColors = 8
        #expect(daOnly.symbolColors >= 256, "device attribute 22 (ANSI colour) vouches for colour")
        var silent = facts(["TERM": "xterm"])
        silent.terminfoColors = 8
        #expect(silent.symbolColors == 8, "a terminal that answers nothing keeps its terminfo count")
        var kitty = facts(["TERM": "xterm"], version: "kitty(0.26.5)")
        kitty.terminfoColors = 8
        #expect(kitty.symbolColors == SymbolsDriver.truecolor)
        let env = ["TERM": "screen", "TMUX": "/tmp/x,1,0", "TMUX_PANE": "%1"]
        var rgb = facts(env, tmux: TmuxFacts(version: [3, 3], clientTerm: "alacritty", clientFeatures: ["RGB", "title"]))
        rgb.terminfoColors = 8
        #expect(rgb.symbolColors == SymbolsDriver.truecolor, "inside tmux, the outer terminal's RGB")
        var noRGB = facts(env.merging(["COLORTERM": "truecolor"]) { $1 }, tmux: TmuxFacts(version: [3, 3], clientTerm: "alacritty", clientFeatures: ["title"]))
        noRGB.terminfoColors = 8
        #expect(noRGB.symbolColors == 256, "without RGB tmux maps to 256 colours: chafa chooses them, not the pane's 8")
    }

    /// Text colours too: TERM=xterm (8 colours) answering as XTerm(379), and tmux's default
    /// `screen`, start ncurses with a 256-colour entry for the same terminal.
    @Test func aTermThatUndersellsTheTerminalGetsARicherEntry() {
        #expect(facts(["TERM": "xterm"], version: "XTerm(379)").textTerm == "xterm-256color")
        #expect(facts(["TERM": "xterm"]).textTerm == nil, "no answer: TERM stands")
        #expect(facts(["TERM": "xterm-256color"], version: "XTerm(379)").textTerm == nil)
        var alacritty = TmuxFacts(version: [3, 3], clientTerm: "alacritty")
        alacritty.clientColors = 256
        #expect(facts(["TERM": "screen"], tmux: alacritty).textTerm == "screen-256color")
        #expect(facts(["TERM": "tmux-256color"], tmux: alacritty).textTerm == nil)
        // mlterm's terminfo entry says 8 colours: tmux maps everything to 8 for it (the selected
        // row came out black on saturated blue, greys white on white), so the browser maps
        // them itself, on `screen`'s 8 colours, greys kept grey.
        var mlterm = TmuxFacts(version: [3, 3], clientTerm: "mlterm")
        mlterm.clientColors = 8
        #expect(facts(["TERM": "screen"], tmux: mlterm).textTerm == nil)
        #expect(facts(["TERM": "tmux-256color"], tmux: mlterm).textTerm == "screen", "tmux's default TERM with an 8-colour outer entry")
        #expect(facts(["TERM": "screen"], tmux: mlterm).symbolColors == 8)
        mlterm.clientFeatures = ["256"]
        #expect(facts(["TERM": "screen"], tmux: mlterm).textTerm == "screen-256color", "terminal-features says 256")
    }

    @Test func probeAnswersAreRead() {
        var found = TerminalFacts(environment: [:])
        TerminalProbe.apply(Array("\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c".utf8), to: &found)
        #expect(found.terminalVersion == "kitty(0.26.5)" && found.answersKittyGraphics && found.deviceAttributes == [62])
        var xterm = TerminalFacts(environment: [:])
        TerminalProbe.apply(Array("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;4;6;9;15;16;22;28c".utf8), to: &xterm)
        #expect(!xterm.answersKittyGraphics && xterm.drawsSixel)
    }

    @Test func colourAnswersAreRead() {
        var white = TerminalFacts(environment: [:])
        TerminalProbe.apply(Array("\u{1B}]10;rgb:0000/0000/0000\u{07}\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?62;22c".utf8), to: &white)
        #expect(white.background == RGBA(255, 255, 255) && white.foreground == RGBA(0, 0, 0) && white.hasLightBackground == true)
        var dark = TerminalFacts(environment: [:])
        TerminalProbe.apply(Array("\u{1B}]11;rgb:10/10/10\u{07}\u{1B}[?62c".utf8), to: &dark)
        #expect(dark.background == RGBA(16, 16, 16) && dark.hasLightBackground == false)
        var silent = TerminalFacts(environment: [:])
        TerminalProbe.apply(Array("\u{1B}[?62c".utf8), to: &silent)
        #expect(silent.hasLightBackground == nil, "no answer: nothing assumed here (the dark theme stays)")
    }

    @Test func sixelGeometryAnswersAreRead() {
        var xterm = TerminalFacts(environment: [:])
        TerminalProbe.apply(Array("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?2;0;780;520S\u{1B}[?2;0;1000;1000S\u{1B}[?63;1;2;4c".utf8), to: &xterm)
        #expect(xterm.sixelGeometry == PixelSize(width: 1000, height: 1000), "the largest size, asked second, wins")
        var foot = TerminalFacts(environment: [:])
        TerminalProbe.apply(Array("\u{1B}[?2;0;10000;10000S\u{1B}[?2;3;0S\u{1B}[?62;4c".utf8), to: &foot)
        #expect(foot.sixelGeometry == PixelSize(width: 10000, height: 10000), "a failed answer (status 3) is not a size")
        var silent = TerminalFacts(environment: [:])
        TerminalProbe.apply(Array("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;4c".utf8), to: &silent)
        #expect(silent.sixelGeometry == nil && silent.sixelLimit == PixelSize(width: 1000, height: 1000),
                "an xterm that does not say gets xterm's default limit")
        #expect(TerminalFacts(environment: [:], terminalVersion: "foot(1.13.1)").sixelLimit == nil)
        #expect(TerminalProbe.sixelGeometry(in: Array("\u{1B}[?2;0;12".utf8)) == nil, "a cut-off answer is no size")
    }

    /// Answers cut off, empty or malformed (a terminal that half answers, bytes typed during the
    /// probe): nothing is made up from them, and nothing is read past the reply's end.
    @Test(arguments: [
        "\u{1B}P>|",                        // cut off right after the version question's prefix
        "\u{1B}P>|kitty",                   // no ST
        "\u{1B}P>|kitty\u{1B}",              // ESC without its backslash at the very end
        "\u{1B}_Gi=31;",                     // the graphics answer cut off
        "\u{1B}]11;rgb:",                    // a colour answer cut off
        "\u{1B}]11;rgb:ffff/ffff",           // two channels
        "\u{1B}]11;rgb:fffff/ffff/ffff\u{07}", // five hex digits
        "\u{1B}]11;rgb:gg/gg/gg\u{07}",        // not hex digits
        "\u{1B}]11",                          // the needle longer than what is left
        "\u{1B}[?2;0;",                       // a sixel size cut off
        "\u{1B}[?2;0;0;0S",                   // a size of nothing
    ])
    func brokenAnswersGiveNothing(_ reply: String) {
        var facts = TerminalFacts(environment: [:])
        TerminalProbe.apply(Array(reply.utf8), to: &facts)
        #expect(facts.terminalVersion == nil && !facts.answersKittyGraphics && facts.background == nil && facts.sixelGeometry == nil)
    }

    @Test func emptyAndTrailingPartsOfAnswers() {
        var empty = TerminalFacts(environment: [:])
        TerminalProbe.apply(Array("\u{1B}P>|\u{1B}\\\u{1B}]11;rgb:ff/ff/ff/\u{07}".utf8), to: &empty)
        #expect(empty.terminalVersion == "", "an empty version is what the terminal said")
        #expect(empty.background == RGBA(255, 255, 255), "a trailing slash is read as before the answers were read as bytes")
        #expect(TerminalProbe.range(of: Array("ab".utf8), in: Array("xab".utf8)[...]) == 1..<3, "a needle at the very end")
        #expect(TerminalProbe.range(of: Array("abc".utf8), in: Array("ab".utf8)[...]) == nil)
        #expect(TerminalProbe.range(of: [], in: Array("ab".utf8)[...]) == nil)
    }

    @Test func deviceAttributeRepliesAreParsed() {
        #expect(GraphicsMode.parseDeviceAttributes(Array("\u{1B}[?63;1;2;4;6;9;15;22c".utf8)) == [63, 1, 2, 4, 6, 9, 15, 22])
        #expect(GraphicsMode.parseDeviceAttributes(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?1;2c".utf8)) == [1, 2])
        #expect(GraphicsMode.parseDeviceAttributes(Array("junk".utf8)) == nil)
    }

    @Test func tmuxPassthroughDoublesEscapes() {
        #expect(TmuxPassthrough.wrap([0x1B, 0x50, 0x71]) == [0x1B, 0x50] + Array("tmux;".utf8) + [0x1B, 0x1B, 0x50, 0x71, 0x1B, 0x5C])
    }

    @Test func picturesFitTheCellRectangleKeepingTheirShape() {
        let cells = CellSize(width: 10, height: 20).fit(.init(width: 400, height: 100), columns: 20, rows: 10)
        #expect(cells.columns == 20 && cells.rows == 3)
    }

    @Test func keysTypedWhileTheTerminalIsAskedAreKeptAndItsAnswersAreNot() {
        let answers = "\u{1B}]11;rgb:0000/0000/0000\u{07}\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?2;0;1000;1000S\u{1B}[?62;4;22c"
        let reply = Array(("v" + answers + "g\r").utf8)
        #expect(TerminalProbe.typedAhead(in: reply) == Array("vg\r".utf8))
        #expect(TerminalProbe.typedAhead(in: Array(answers.utf8)).isEmpty)
        // An arrow key cannot be given back as one key: it is left out, the letters after it kept.
        #expect(TerminalProbe.typedAhead(in: Array("\u{1B}[Aq\u{1B}OBx".utf8)) == Array("qx".utf8))
    }
}
