import Testing
@testable import BrowserCore
@testable import BrowserUI

@Suite struct KeyMapTests {
    @Test func userBindingsReplaceAndRemoveDefaults() {
        var keys = KeyMap.standard
        #expect(keys.bind("x", to: "quit") == nil)
        #expect(keys.bind("q", to: "none") == nil)
        #expect(keys.bind("ctrl-d", to: "page-down") == nil)
        let state = BrowserState(folder: "/")
        #expect(KeyBindings.action(for: .character(UInt32(UInt8(ascii: "x"))), state: state, keys: keys) == .quit)
        #expect(KeyBindings.action(for: .character(UInt32(UInt8(ascii: "q"))), state: state, keys: keys) == nil)
        #expect(KeyBindings.action(for: .character(4), state: state, keys: keys) == .pageDown)
        #expect(keys.keys(for: .quit) == ["x"])
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
        #expect(KeyBindings.action(for: .character(3), state: state, keys: keys) == .quit)
    }

    @Test func theHelpScreenNamesTheBoundKeys() {
        var keys = KeyMap.standard
        _ = keys.bind("Q", to: "quit")
        let help = HelpText.lines(for: keys).joined(separator: "\n")
        #expect(help.contains("Q q"))
        #expect(help.contains("j ↓"))
    }
}
