import SystemKit

/// The file calls an undo or a redo makes (`UndoJournal`), wherever the files are: this
/// computer's (`LocalUndoFiles`) or a place's, a remote's among them (`PlaceUndoFiles` in
/// Places). Each is one call, made on a thread of the caller's own (they block); a failure is
/// the reason the user is told, and the journal keeps the step.
public protocol UndoFiles: Sendable {
    /// What is at `path` now (nil: nothing), not following a last link; throws when the place
    /// cannot say (not connected, not answering): the undo is then refused with that reason.
    func stamp(_ path: String) throws(FileSystemError) -> PathStamp?
    /// Renames within a folder, never over a name.
    func rename(_ from: String, to: String) throws(FileSystemError)
    /// Moves `from` to exactly `to` across volumes of one place: copied, checked, then removed.
    func move(_ from: String, to: String, moved: (String, String) -> Void, removed: (String) -> Void) throws(FileSystemError)
    /// Moves `path` to its place's trash; where it went.
    func trash(_ path: String) throws(FileSystemError) -> TrashCan.Item
    /// Puts a trashed item back; where it went.
    func restore(_ item: TrashCan.Item) throws(FileSystemError) -> String
}

/// This computer's files, by their paths: the journal's calls as they always were.
public struct LocalUndoFiles: UndoFiles {
    public let trashCan: TrashCan

    public init(trash: TrashCan) { self.trashCan = trash }

    public func stamp(_ path: String) throws(FileSystemError) -> PathStamp? { PathStamp.of(path) }

    public func rename(_ from: String, to: String) throws(FileSystemError) { try FileRename.noReplaceOrLook(from, to: to) }

    public func move(_ from: String, to: String, moved: (String, String) -> Void, removed: (String) -> Void) throws(FileSystemError) {
        let folder = String(to[..<to.lastIndex(of: "/")!])
        let operation = FileOperation(kind: .move, sources: [from], destination: folder.isEmpty ? "/" : folder)
        let report = operation.run(trash: nil, resolve: { _ in (.skip, false) }, progress: { _ in }, moved: moved, removed: removed)
        guard let placed = report.placed.first else {
            throw FileSystemError(code: .other, path: from, context: report.failures.first ?? "\(FileOperation.escapedName(from)) could not be moved back")
        }
        if placed.target != to {
            try FileRename.noReplaceOrLook(placed.target, to: to)
            moved(placed.target, to)
        }
    }

    public func trash(_ path: String) throws(FileSystemError) -> TrashCan.Item { try trashCan.trash(path) }

    public func restore(_ item: TrashCan.Item) throws(FileSystemError) -> String { try trashCan.restore(item) }
}
