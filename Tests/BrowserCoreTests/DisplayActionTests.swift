import Testing
@testable import BrowserCore
import FileSystemKit

/// The display feature's reducer: sort, extensions, list or grid.
@Suite struct DisplayActionTests {
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
}
