import FileSystemKit
import SystemKit

/// How a finished file operation is undone: a copy's copies go to the Trash, a move goes back
/// (one rename on the same volume, a copy back across volumes), trashed items come back. A
/// deletion for good cannot be undone and is not written down.
enum UndoSteps {
    static func of(_ kind: FileOperation.Kind, report: FileOperation.Report, destination: String?) -> UndoStep {
        var actions: [UndoAction] = []
        switch kind {
        case .copy:
            actions = report.placed.compactMap { placed in PathStamp.of(placed.target).map { .discard(placed.target, expected: $0) } }
        case .move:
            actions = report.placed.compactMap { placed in
                PathStamp.of(placed.target).map { placed.sameVolume ? .rename(from: placed.target, to: placed.source, expected: $0)
                                                                     : .move(from: placed.target, to: placed.source, expected: $0) }
            }
        case .trash: actions = report.trashed.map { .restore($0) }
        case .delete: actions = []
        }
        let count = actions.count
        let what = count == 1 ? TerminalText.escaped(report.done.first.map(FileOperation.name) ?? "1 item") : "\(count) items"
        let title: String
        switch kind {
        case .copy: title = "the copy of \(what)"
        case .move: title = "the move of \(what)" + (destination.map { " to \(FileOperation.escapedName($0))" } ?? "")
        case .trash: title = "the trashing of \(what)"
        case .delete: title = ""
        }
        return UndoStep(title: title, actions: actions)
    }
}
