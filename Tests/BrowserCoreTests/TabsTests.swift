import Testing
@testable import BrowserCore
import FileSystemKit

/// Tabs: each keeps its own folder, cursor, filter, sort, view and history.
@Suite struct TabsTests {
    @Test func eachTabKeepsItsCursorFilterSortViewAndHistory() {
        var state = BrowserState(folder: "/home/me", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.list(["a.jpg", "b.jpg", "c.jpg"], folders: ["work"])
        state.apply(.navigation(.moveDown(2)))  // b.jpg
        state.apply(.display(.cycleSort))  // size
        _ = state.press("t", .tabs(.newTab))
        #expect(state.tabs.count == 2 && state.currentTab == 1 && state.folder == "/home/me")
        state.apply(.navigation(.home))
        state.apply(.navigation(.open))  // work
        state.list(["w1.txt", "w2.txt"])
        state.apply(.display(.toggleView))
        state.apply(.filter(.start))
        state.apply(.filter(.input("w2")))
        state.apply(.filter(.accept))
        #expect(state.entries.count == 1)
        // Back to tab 1: its cursor, its sort, the list view, no filter.
        #expect(state.press("1", nil) == [.list(folder: "/home/me", ticket: state.ticket)])
        state.list(["a.jpg", "b.jpg", "c.jpg"], folders: ["work"])
        #expect(state.selected?.name == "b.jpg" && state.sort == .size && state.view == .list && state.filter.isEmpty)
        #expect(!state.history.canGoBack, "tab 1 never left /home/me")
        // And tab 2 again, with ].
        _ = state.press("]", .tabs(.nextTab))
        state.list(["w1.txt", "w2.txt"])
        #expect(state.folder == "/home/me/work" && state.view == .grid && state.filter == "w2" && state.selected?.name == "w2.txt")
        #expect(state.history.canGoBack, "tab 2 came from /home/me")
        _ = state.press("[", .tabs(.previousTab))
        _ = state.press("[", .tabs(.previousTab))
        #expect(state.currentTab == 1, "[ wraps around")
        #expect(state.press("9", nil).isEmpty && state.message == "no tab 9 (there are 2)")
    }

    @Test func closingATabShowsTheNextAndTheLastOneStays() {
        var state = BrowserState(folder: "/a", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.list(["x"])
        _ = state.press("w", .tabs(.closeTab))
        #expect(state.message == "this is the only tab (q quits)")
        _ = state.press("t", .tabs(.newTab))
        state.apply(.navigation(.parent))
        state.list([], folders: ["a"])
        _ = state.press("t", .tabs(.newTab))
        #expect(state.tabs.map(\.folder) == ["/a", "/", "/"] && state.currentTab == 2)
        #expect(state.press("w", .tabs(.closeTab)) == [.list(folder: "/", ticket: state.ticket)])
        #expect(state.tabs.count == 2 && state.currentTab == 1)
        _ = state.press("1", nil)
        _ = state.press("w", .tabs(.closeTab))
        #expect(state.tabs.isEmpty && state.folder == "/", "one tab left: no tab bar")
    }

    @Test func digitsKeepTheirCommandWhenTheKeyMapBindsThem() {
        var state = BrowserState(folder: "/a", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.list(["x", "y"])
        _ = state.press("2", .move(.down))
        #expect(state.cursor == 1, "a digit bound to down moves")
    }
}
