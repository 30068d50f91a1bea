/// File operations the user starts: marks, the clipboard, renaming and creating, trash, delete
/// and restore. The work runs in jobs; what they report comes back as `BackgroundResult`s.
public enum FileAction: Sendable, Equatable {
    case toggleMark, invertMarks, clearMarks
    case copyMarked, cutMarked, paste
    case startRename, startCreate
    case trashMarked, deleteMarked, restoreTrashed
}
