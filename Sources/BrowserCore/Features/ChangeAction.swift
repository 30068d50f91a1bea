/// Changes to names as a whole: `z`/`Z` take back or do again the last file operation, `R`
/// renames the marked names (or all shown) in the editor.
public enum ChangeAction: Sendable, Equatable {
    case undo, redo
    case startBulkRename
}
