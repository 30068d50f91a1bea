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

    @Test func aJobEndingKeepsTheFilterAndWhatMustBeSeenClearsAKeptOne() {
        var state = BrowserState.browsing(["here.bin", "there.bin"])
        state.apply(.filter(.start))
        state.apply(.filter(.input("the")))
        // A copy ends while the filter is typed: the folder is listed again, the filter stays.
        state.apply(.reload(select: nil))
        state.list(["here.bin", "there.bin", "new.bin"])
        #expect(state.isTypingFilter && state.filter == "the")
        state.apply(.filter(.input("re")))
        state.apply(.filter(.accept))
        #expect(state.entries.map(\.name) == ["there.bin"])
        // And once it is accepted.
        state.apply(.reload(select: nil))
        state.list(["here.bin", "there.bin", "new.bin"])
        #expect(state.filter == "there" && state.entries.map(\.name) == ["there.bin"])
        // A rename names the entry to show: the kept filter goes so that it is on screen.
        state.apply(.reload(select: Array("renamed.bin".utf8), showsAll: true))
        state.list(["here.bin", "renamed.bin", "new.bin"])
        #expect(state.filter.isEmpty && state.selected?.name == "renamed.bin")
        // An undo brings back what the user asked for: a kept filter goes, one being typed stays.
        state.apply(.filter(.start))
        state.apply(.filter(.input("here")))
        state.apply(.filter(.accept))
        state.apply(.reload(select: nil, showsAll: true))
        state.list(["here.bin", "renamed.bin", "new.bin", "notes.txt"])
        #expect(state.filter.isEmpty && state.entries.count == 4)
        state.apply(.filter(.start))
        state.apply(.filter(.input("here")))
        state.apply(.reload(select: nil, showsAll: true))
        state.list(["here.bin", "renamed.bin", "new.bin", "notes.txt"])
        #expect(state.isTypingFilter && state.filter == "here" && state.entries.map(\.name) == ["here.bin"])
    }

    /// A filter the user sets while an undo's relisting is under way (typed once "redone: …"
    /// showed) is theirs: the relisting clears only the filter that was there when it was asked
    /// for (CI: "/there" typed after a redo was gone when the relisting came in).
    @Test func aFilterSetAfterTheRelistingWasAskedForStays() {
        var state = BrowserState.browsing(["here.bin", "there.bin"])
        state.apply(.reload(select: nil, showsAll: true))
        state.apply(.filter(.start))
        state.apply(.filter(.input("there")))
        state.apply(.filter(.accept))
        state.list(["here.bin", "there.bin", "new.bin"])
        #expect(state.filter == "there" && state.entries.map(\.name) == ["there.bin"])
    }
}
