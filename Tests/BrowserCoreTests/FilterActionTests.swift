import Testing
@testable import BrowserCore
import FileSystemKit

/// The filter feature's reducer.
@Suite struct FilterActionTests {
    @Test func outsideTheFilterTypingMeansNothingAndEscClearsTheKeptOne() {
        var state = BrowserState.browsing(["apple", "banana"])
        state.apply(.filter(.input("x")))
        #expect(state.filter.isEmpty && state.entries.count == 2, "no filter is typed while browsing")
        state.apply(.filter(.start))
        state.apply(.filter(.input("ban")))
        state.apply(.filter(.accept))
        #expect(state.mode == .browsing && state.entries.map(\.name) == ["banana"])
        state.apply(.filter(.cancel))
        #expect(state.filter.isEmpty && state.entries.count == 2)
    }

    @Test func backspaceOnAnEmptyFilterLeavesIt() {
        var state = BrowserState.browsing(["apple"])
        state.apply(.filter(.start))
        #expect(state.isTypingFilter)
        state.apply(.filter(.backspace))
        #expect(!state.isTypingFilter && state.mode == .browsing)
    }
}
