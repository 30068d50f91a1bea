import Testing
@testable import BrowserCore
@testable import FileSystemKit

/// The file operations' reducer: marks, the clipboard, delete.
@Suite struct FileActionTests {
    @Test func marksMoveOnAndCopyTakesTheMarkedOnes() {
        var state = BrowserState.browsing(["a", "b", "c"])
        state.apply(.files(.toggleMark))
        #expect(state.marked == [Array("a".utf8)] && state.cursor == 1, "marking moves to the next entry")
        state.apply(.files(.invertMarks))
        #expect(state.marked == [Array("b".utf8), Array("c".utf8)])
        state.apply(.files(.copyMarked))
        #expect(state.clipboard == BrowserState.Clipboard(paths: ["/home/me/b", "/home/me/c"], isCut: false) && state.marked.isEmpty)
        #expect(state.message == "2 items to copy · p pastes")
        #expect(state.apply(.files(.paste)) == [.fileOperation(.copy, sources: ["/home/me/b", "/home/me/c"], destination: "/home/me")])
        #expect(state.clipboard != nil, "a copy can be pasted again")
    }

    @Test func pasteWithNothingPutAsideSaysHow() {
        var state = BrowserState.browsing(["a"])
        #expect(state.apply(.files(.paste)).isEmpty && state.message == "nothing to paste: y copies, x cuts")
    }

    @Test func copyOrCutWithNothingListedSaysSoAndKeepsTheClipboard() {
        var state = BrowserState.browsing(["a"])
        state.apply(.files(.copyMarked))
        let kept = state.clipboard
        var empty = BrowserState.browsing([])
        empty.clipboard = kept
        #expect(empty.apply(.files(.copyMarked)).isEmpty && empty.message == "nothing to copy here")
        #expect(empty.apply(.files(.cutMarked)).isEmpty && empty.message == "nothing to move here")
        #expect(empty.clipboard == kept, "what was put aside before stays")
    }

    @Test func deleteAsksAndOnlyYesDeletes() {
        var state = BrowserState.browsing(["a"])
        state.apply(.files(.deleteMarked))
        #expect(state.overlay == .confirmDelete(["/home/me/a"]))
        #expect(state.apply(.navigation(.moveDown(1))).isEmpty && state.overlay == .confirmDelete(["/home/me/a"]), "a question waits for its answer")
        #expect(state.apply(.answer(.confirmDelete)) == [.fileOperation(.delete, sources: ["/home/me/a"], destination: nil)])
        #expect(state.overlay == nil)
    }
}
