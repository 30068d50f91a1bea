import FileSystemKit

/// The file operations' state: what `y`/`x` put aside, and what `U` can put back (the last
/// trash job's items, or the original an edit replaced).
public struct FilesState: Sendable, Equatable {
    public internal(set) var clipboard: BrowserState.Clipboard?
    public internal(set) var lastTrashed: [TrashCan.Item] = []
    public internal(set) var lastReplaced: ReplacedOriginal?
}
