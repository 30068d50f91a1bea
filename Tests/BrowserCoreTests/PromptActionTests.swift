import Testing
@testable import BrowserCore
@testable import FileSystemKit

/// The name prompt's reducer (`r`, `a`).
@Suite struct PromptActionTests {
    @Test func thePromptTypesANameAndRefusesASlash() {
        var state = BrowserState.browsing(["a.txt"])
        state.apply(.files(.startRename))
        #expect(state.prompt?.text == "a.txt")
        state.apply(.prompt(.end))
        state.apply(.prompt(.backspace))
        state.apply(.prompt(.backspace))
        state.apply(.prompt(.backspace))
        state.apply(.prompt(.input("md")))
        #expect(state.apply(.prompt(.accept)) == [.rename(from: "/home/me/a.txt", to: "/home/me/a.md")])
        state.apply(.files(.startCreate))
        state.apply(.prompt(.input("x/y")))
        #expect(state.apply(.prompt(.accept)).isEmpty && state.message == "a name cannot contain /")
    }
}
