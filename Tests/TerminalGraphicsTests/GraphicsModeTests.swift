import Testing
@testable import TerminalGraphics

@Suite struct GraphicsModeTests {
    @Test func theUsersChoiceWins() {
        #expect(GraphicsMode.choose(requested: .off, environment: ["KITTY_WINDOW_ID": "1"], deviceAttributes: [4]) == .off)
    }

    @Test func environmentNamesTheProtocol() {
        #expect(GraphicsMode.choose(requested: nil, environment: ["TERM": "xterm-kitty"], deviceAttributes: nil) == .kitty)
        #expect(GraphicsMode.choose(requested: nil, environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], deviceAttributes: nil) == .iterm)
    }

    @Test func sixelComesFromTheTerminalsOwnAnswer() {
        #expect(GraphicsMode.choose(requested: nil, environment: ["TERM": "xterm"], deviceAttributes: [63, 1, 2, 4, 6, 9]) == .sixel)
        #expect(GraphicsMode.choose(requested: nil, environment: ["TERM": "xterm"], deviceAttributes: [63, 1, 2, 6]) == .symbols)
    }

    @Test func insideTmuxPicturesAreSymbols() {
        #expect(GraphicsMode.choose(requested: nil, environment: ["TERM": "tmux-256color", "TMUX": "/tmp/x,1,0"], deviceAttributes: [4]) == .symbols)
    }

    @Test func deviceAttributeRepliesAreParsed() {
        #expect(GraphicsMode.parseDeviceAttributes(Array("\u{1B}[?63;1;2;4;6;9;15;22c".utf8)) == [63, 1, 2, 4, 6, 9, 15, 22])
        #expect(GraphicsMode.parseDeviceAttributes(Array("junk".utf8)) == nil)
    }

    @Test func tmuxPassthroughDoublesEscapes() {
        #expect(TmuxPassthrough.wrap([0x1B, 0x50, 0x71]) == [0x1B, 0x50] + Array("tmux;".utf8) + [0x1B, 0x1B, 0x50, 0x71, 0x1B, 0x5C])
    }

    @Test func picturesFitTheCellRectangleKeepingTheirShape() {
        let cells = ChafaEncoder.fittedCells(for: .init(width: 400, height: 100), columns: 20, rows: 10, cell: (10, 20))
        #expect(cells.columns == 20 && cells.rows == 3)
    }
}
