import Testing
@testable import BrowserCore
@testable import FileSystemKit

/// The file operations' reducers: marks and the clipboard, the name prompt, the questions' answers.
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

    @Test func deleteAsksAndOnlyYesDeletes() {
        var state = BrowserState.browsing(["a"])
        state.apply(.files(.deleteMarked))
        #expect(state.overlay == .confirmDelete(["/home/me/a"]))
        #expect(state.apply(.navigation(.moveDown(1))).isEmpty && state.overlay == .confirmDelete(["/home/me/a"]), "a question waits for its answer")
        #expect(state.apply(.answer(.confirmDelete)) == [.fileOperation(.delete, sources: ["/home/me/a"], destination: nil)])
        #expect(state.overlay == nil)
    }

    @Test func aConflictIsAnsweredOrSkippedOnEsc() {
        var state = BrowserState.browsing(["a"])
        let conflict = FileOperation.Conflict(source: "/x/a", destination: "/home/me/a", destinationIsFolder: false)
        state.apply(.conflictAsked(job: 4, conflict))
        #expect(state.apply(.answer(.conflict(.overwrite, applyToAll: true))) == [.resolveConflict(job: 4, .overwrite, applyToAll: true)])
        state.apply(.conflictAsked(job: 5, conflict))
        #expect(state.apply(.screen(.closeOverlay)) == [.resolveConflict(job: 5, .skip, applyToAll: false)])
        #expect(state.mode == .browsing)
    }
}
