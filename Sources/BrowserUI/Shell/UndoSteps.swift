import FileSystemKit
import SystemKit

/// How a finished file operation is undone: a copy's copies go to the Trash (of the place they
/// are on), a move goes back (one rename on the same volume, a copy back across volumes of one
/// place; between two places, where a move is a copy and its source in its own trash, the source
/// comes back from that trash and the copy goes to its place's trash), trashed items come back.
/// A deletion for good cannot be undone and is not written down.
enum UndoSteps {
    /// `stamp` reads what a copy is now where it is (this computer's `lstat`, or the place's own).
    static func of(_ kind: FileOperation.Kind, report: FileOperation.Report, destination: String?,
                   stamp: (String) -> PathStamp? = PathStamp.of) -> UndoStep {
        var actions: [UndoAction] = []
        var moved = 0
        switch kind {
        case .copy:
            actions = report.placed.compactMap { placed in stamp(placed.target).map { .discard(placed.target, expected: $0) } }
        case .move:
            for placed in report.placed {
                guard let stamped = stamp(placed.target) else { continue }
                if Self.place(of: placed.source) != Self.place(of: placed.target) {
                    // Its source in its own place's trash: only a source moved (not one kept) is undone.
                    guard let trashed = report.trashed.first(where: { $0.originalPath == placed.source }) else { continue }
                    actions += [.restore(trashed), .discard(placed.target, expected: stamped)]
                    moved += 1
                } else {
                    actions.append(placed.sameVolume ? .rename(from: placed.target, to: placed.source, expected: stamped)
                                                     : .move(from: placed.target, to: placed.source, expected: stamped))
                    moved += 1
                }
            }
        case .trash: actions = report.trashed.map { .restore($0) }
        case .delete: actions = []
        }
        let count = kind == .move ? moved : actions.count
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

    /// The remote prefix a path is under (nil: this computer).
    private static func place(of path: String) -> String? { PlacePath.split(path)?.prefix }
}
