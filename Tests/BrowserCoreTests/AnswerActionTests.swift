import Testing
@testable import BrowserCore
@testable import FileSystemKit

/// The questions' reducer: a conflict's answer, or skip on Esc.
@Suite struct AnswerActionTests {
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
