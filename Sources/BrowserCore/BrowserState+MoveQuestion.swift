import FileSystemKit
import SystemKit

/// A paste that moves from a place without a trash (a server reached by plain SFTP): its
/// originals could only be deleted for good, so nothing starts until the user says so. The whole
/// question is on the status line, as `D`'s is a question before a deletion for good; y moves,
/// each original deleted only once its copy is in place and its sizes check; any other key moves
/// nothing, says so, and keeps the cut for another `p`.
extension BrowserState {
    /// Asks whether `sources` may be moved from `place` into `destination`, their originals
    /// deleted for good there.
    mutating func askToDeleteSources(_ sources: [String], into destination: String, from place: String) {
        mode = .awaitingKey(.deleteSourcesForGood(sources: sources, destination: destination, place: place))
        // Short enough to be whole beside the counts on a terminal of 120 columns.
        message = "move \(Self.count(sources.count)) from \(TerminalText.escaped(place))? No trash there: originals deleted for good once copies check (y/N)"
    }

    /// The answer: y (or Y) starts the move; any other key (nil: Esc, Enter) moves nothing.
    mutating func answerDeleteSources(_ sources: [String], into destination: String, from place: String, key: String?) -> [BrowserEffect] {
        mode = .browsing
        guard key == "y" || key == "Y" else {
            clipboard = Clipboard(paths: sources, isCut: true)
            message = "nothing moved: the originals stay on \(TerminalText.escaped(place)) (p asks again)"
            return []
        }
        message = "moving \(Self.count(sources.count)) from \(TerminalText.escaped(place)); each original deleted once its copy is checked"
        return [.moveDeletingSources(sources: sources, destination: destination)]
    }
}
