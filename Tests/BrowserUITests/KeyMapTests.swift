import Testing
@testable import BrowserCore
@testable import BrowserUI

@Suite struct KeyMapTests {
    /// What the key means to the state, through the key map, as the browser asks.
    private func action(_ key: KeyPress, _ state: BrowserState, _ keys: KeyMap) -> BrowserAction? {
        state.intention(for: key, keys.command(for: key))
    }

    @Test func userBindingsReplaceAndRemoveDefaults() {
        var keys = KeyMap.standard
        #expect(keys.bind("x", to: "quit") == nil)
        #expect(keys.bind("q", to: "none") == nil)
        #expect(keys.bind("ctrl-d", to: "page-down") == nil)
        let state = BrowserState(folder: "/")
        #expect(action(.character(UInt32(UInt8(ascii: "x"))), state, keys) == .screen(.quit))
        #expect(action(.character(UInt32(UInt8(ascii: "q"))), state, keys) == nil)
        #expect(action(.character(4), state, keys) == .navigation(.pageDown))
        #expect(keys.keys(for: .screen(.quit)) == ["x"])
    }

    @Test func mistakesAreReportedNotApplied() {
        var keys = KeyMap.standard
        #expect(keys.bind("x", to: "explode")?.contains("unknown command") == true)
        #expect(keys.bind("ctrl-1", to: "quit")?.contains("unknown key") == true)
        #expect(keys.bind("", to: "quit") != nil)
        #expect(keys == KeyMap.standard)
    }

    @Test func escapeAndControlCAlwaysWork() {
        var keys = KeyMap.standard
        _ = keys.bind("ctrl-c", to: "down")
        let state = BrowserState(folder: "/")
        #expect(action(.character(3), state, keys) == .screen(.quit))
    }

    @Test func theHelpScreenNamesTheBoundKeys() {
        var keys = KeyMap.standard
        _ = keys.bind("Q", to: "quit")
        let help = HelpText.lines(for: keys).joined(separator: "\n")
        #expect(help.contains("Q q"))
        #expect(help.contains("j ↓"))
    }

    /// Ctrl-R lists the folder again (no other binding had it; Quick Edit's own Ctrl-R, redo,
    /// is read before the key map), and the help names it.
    @Test func ctrlRReloadsTheFolder() {
        let keys = KeyMap.standard
        #expect(action(.character(18), BrowserState(folder: "/"), keys) == .screen(.reload))
        #expect(keys.keys(for: .screen(.reload)) == ["ctrl-r"])
        #expect(HelpText.lines(for: keys).joined(separator: "\n").contains("list this folder again"))
    }
}
