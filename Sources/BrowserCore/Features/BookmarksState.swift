/// The bookmarks feature's state: the bookmarks by key as last read or written, the list's
/// cursor, what the last check found of each folder ("" reachable, else why not), and a key
/// pressed after `'` before the file was read.
public struct BookmarksState: Sendable, Equatable {
    public internal(set) var list: [Bookmark] = []
    public internal(set) var cursor = 0
    public internal(set) var problems: [String: String] = [:]
    /// Whether the bookmarks file has been read (keys may come before it is).
    var read = false
    /// A bookmark key pressed before the file was read, gone to once it is.
    var pendingJump: String?
}
