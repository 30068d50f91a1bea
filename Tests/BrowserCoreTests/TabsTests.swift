import Testing
@testable import BrowserCore
import FileSystemKit

/// Tabs: each keeps its own folder, cursor, filter, sort, view and history.
@Suite struct TabsTests {
    private func list(_ state: inout BrowserState, _ names: [String], folders: [String] = []) {
        let entries = names.map { Entry(name: $0) } + folders.map { Entry(name: $0, isDirectory: true) }
        state.apply(.listed(ticket: state.ticket, entries: EntryStore(entries), complete: true))
    }

    private func key(_ text: String, _ command: Command? = nil, _ state: inout BrowserState) -> [BrowserEffect] {
        state.apply(.key(.character(text.unicodeScalars.first!.value), command))
    }

    @Test func eachTabKeepsItsCursorFilterSortViewAndHistory() {
        var state = BrowserState(folder: "/home/me", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        list(&state, ["a.jpg", "b.jpg", "c.jpg"], folders: ["work"])
        state.apply(.moveDown(2))  // b.jpg
        state.apply(.cycleSort)  // size
        _ = key("t", .newTab, &state)
        #expect(state.tabs.count == 2 && state.currentTab == 1 && state.folder == "/home/me")
        state.apply(.home)
        state.apply(.open)  // work
        list(&state, ["w1.txt", "w2.txt"])
        state.apply(.toggleView)
        state.apply(.startFilter)
        state.apply(.filterInput("w2"))
        state.apply(.filterAccept)
        #expect(state.entries.count == 1)
        // Back to tab 1: its cursor, its sort, the list view, no filter.
        #expect(key("1", nil, &state) == [.list(folder: "/home/me", ticket: state.ticket)])
        list(&state, ["a.jpg", "b.jpg", "c.jpg"], folders: ["work"])
        #expect(state.selected?.name == "b.jpg" && state.sort == .size && state.view == .list && state.filter.isEmpty)
        #expect(!state.history.canGoBack, "tab 1 never left /home/me")
        // And tab 2 again, with ].
        _ = key("]", .nextTab, &state)
        list(&state, ["w1.txt", "w2.txt"])
        #expect(state.folder == "/home/me/work" && state.view == .grid && state.filter == "w2" && state.selected?.name == "w2.txt")
        #expect(state.history.canGoBack, "tab 2 came from /home/me")
        _ = key("[", .previousTab, &state)
        _ = key("[", .previousTab, &state)
        #expect(state.currentTab == 1, "[ wraps around")
        #expect(key("9", nil, &state).isEmpty && state.message == "no tab 9 (there are 2)")
    }

    @Test func closingATabShowsTheNextAndTheLastOneStays() {
        var state = BrowserState(folder: "/a", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        list(&state, ["x"])
        _ = key("w", .closeTab, &state)
        #expect(state.message == "this is the only tab (q quits)")
        _ = key("t", .newTab, &state)
        state.apply(.parent)
        list(&state, [], folders: ["a"])
        _ = key("t", .newTab, &state)
        #expect(state.tabs.map(\.folder) == ["/a", "/", "/"] && state.currentTab == 2)
        #expect(key("w", .closeTab, &state) == [.list(folder: "/", ticket: state.ticket)])
        #expect(state.tabs.count == 2 && state.currentTab == 1)
        _ = key("1", nil, &state)
        _ = key("w", .closeTab, &state)
        #expect(state.tabs.isEmpty && state.folder == "/", "one tab left: no tab bar")
    }

    @Test func digitsKeepTheirCommandWhenTheKeyMapBindsThem() {
        var state = BrowserState(folder: "/a", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        list(&state, ["x", "y"])
        _ = key("2", .down, &state)
        #expect(state.cursor == 1, "a digit bound to down moves")
    }
}
