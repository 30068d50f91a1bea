import Testing
@testable import BrowserCore

/// Commands nested by feature keep the names config.toml uses.
@Suite struct CommandTests {
    @Test func everyNameIsOneCommandAndComesBack() {
        let names = Command.allCases.map(\.rawValue)
        #expect(Set(names).count == names.count, "no name twice")
        #expect(names.count == 48, "every command of before, and reload")
        for command in Command.allCases { #expect(Command(rawValue: command.rawValue) == command) }
        #expect(Command(rawValue: "page-down") == .move(.pageDown))
        #expect(Command(rawValue: "thumbnail-folder") == .jobs(.batch))
        #expect(Command(rawValue: "clear-marks") == .files(.unmark))
        #expect(Command(rawValue: "jump-to-bookmark") == .places(.jumpToBookmark))
        #expect(Command(rawValue: "close-tab") == .tabs(.closeTab))
        #expect(Command(rawValue: "quick-look") == .screen(.quickLook))
        #expect(Command(rawValue: "reload") == .screen(.reload))
        #expect(Command(rawValue: "explode") == nil)
    }
}
