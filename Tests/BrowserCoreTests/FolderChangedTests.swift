import Testing
@testable import BrowserCore
@testable import FileSystemKit

/// A watched folder that changed by itself (`.folderChanged`): it is listed again, and what the
/// user set there stays (the cursor's entry, the filter, the marks), unlike a reload after an
/// operation; a change heard for a folder already left does nothing.
@Suite struct FolderChangedTests {
    @Test func theFolderIsListedAgainKeepingTheCursorTheFilterAndTheMarks() {
        var state = BrowserState.browsing(["apple", "banana", "blueberry", "cherry"])
        state.apply(.filter(.start))
        state.apply(.filter(.input("b")))
        state.apply(.filter(.accept))
        #expect(state.entries.map(\.name) == ["banana", "blueberry"])
        state.apply(.files(.toggleMark))
        #expect(state.marked == [Array("banana".utf8)] && state.selected?.name == "blueberry")
        let before = state.ticket
        let effects = state.apply(.folderChanged(folder: "/home/me"))
        #expect(effects.contains(.list(folder: "/home/me", ticket: state.ticket)) && state.ticket == before + 1)
        state.list(["apple", "banana", "blackberry", "blueberry", "cherry"])
        #expect(state.filter == "b")
        #expect(state.entries.map(\.name) == ["banana", "blackberry", "blueberry"], "the new file shown, the filter applied")
        #expect(state.marked == [Array("banana".utf8)])
        #expect(state.selected?.name == "blueberry", "the cursor stays on its entry, not its row")
    }

    @Test func aChangeOfAFolderLeftDoesNothing() {
        var state = BrowserState.browsing(["a", "b"])
        let before = state.ticket
        #expect(state.apply(.folderChanged(folder: "/elsewhere")).isEmpty)
        #expect(state.ticket == before)
    }

    /// Ctrl-R (`.screen(.reload)`): the same listing again by hand, for any place (an SFTP
    /// folder between its polls), the filter and marks kept.
    @Test func theReloadKeyListsAgainKeepingTheFilterAndTheMarks() {
        var state = BrowserState.browsing(["apple", "banana", "blueberry"])
        state.apply(.filter(.start))
        state.apply(.filter(.input("b")))
        state.apply(.filter(.accept))
        state.apply(.files(.toggleMark))
        let before = state.ticket
        let effects = state.apply(.screen(.reload))
        #expect(effects.contains(.list(folder: "/home/me", ticket: state.ticket)) && state.ticket == before + 1)
        state.list(["apple", "banana", "blackberry", "blueberry"])
        #expect(state.filter == "b" && state.marked == [Array("banana".utf8)])
        #expect(state.entries.map(\.name) == ["banana", "blackberry", "blueberry"] && state.selected?.name == "blueberry")
        #expect(state.message == "listed again")
    }
}
