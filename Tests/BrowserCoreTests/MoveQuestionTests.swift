import Testing
@testable import BrowserCore
import FileSystemKit

/// A paste that moves from a server reached by plain SFTP (no trash there, #26) asks first, on
/// the status line: y starts the move that deletes each original for good once its copy is
/// checked; n, Esc, Enter or any other key moves nothing, says so and keeps the cut.
@Suite struct MoveQuestionTests {
    static let sources = ["ssh://me@nas/photos/a.jpg", "ssh://me@nas/photos/b.jpg"]

    func asked() -> BrowserState {
        var state = BrowserState.browsing(["a"])
        state.apply(.moveNeedsYes(sources: Self.sources, destination: "/home/me", place: "sftp:nas"))
        return state
    }

    @Test func theWholeQuestionIsOnTheStatusLineAndYMoves() {
        var state = asked()
        #expect(state.mode == .awaitingKey(.deleteSourcesForGood(sources: Self.sources, destination: "/home/me", place: "sftp:nas")))
        let question = state.message ?? ""
        #expect(question.contains("move 2 items from sftp:nas?") && question.contains("deleted for good") && question.hasSuffix("(y/N)"), "\(question)")
        #expect(state.apply(.key(.character(UInt32(UInt8(ascii: "y"))), nil)) == [.moveDeletingSources(sources: Self.sources, destination: "/home/me")])
        #expect(state.mode == .browsing && state.message?.hasPrefix("moving 2 items from sftp:nas") == true, "\(String(describing: state.message))")
    }

    @Test func anyOtherKeyMovesNothingAndKeepsTheCut() {
        for key in [KeyPress.character(UInt32(UInt8(ascii: "n"))), .escape, .character(13), .special(.down), .character(UInt32(UInt8(ascii: "x")))] {
            var state = asked()
            #expect(state.apply(.key(key, nil)) == [], "\(key)")
            #expect(state.mode == .browsing && state.message?.hasPrefix("nothing moved") == true, "\(key): \(String(describing: state.message))")
            #expect(state.clipboard == BrowserState.Clipboard(paths: Self.sources, isCut: true), "\(key)")
        }
    }
}
