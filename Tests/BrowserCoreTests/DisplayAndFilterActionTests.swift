import Testing
@testable import BrowserCore
import FileSystemKit

/// The display and filter features' reducers: how the listing is shown and narrowed.
@Suite struct DisplayAndFilterActionTests {
    @Test func sortingKeepsTheCursorOnItsEntryAndSaysHow() {
        var state = BrowserState.browsing(["b", "aaa", "cc"])
        state.apply(.navigation(.moveDown(1)))  // b
        state.apply(.display(.cycleSort))
        #expect(state.sort == .size && state.selected?.name == "b" && state.message == "sorted by size")
        state.apply(.display(.toggleExtensions))
        #expect(!state.showExtensions)
        state.apply(.display(.toggleView))
        #expect(state.view == .grid && state.top == 0)
    }

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
