/// A folder (and the file the cursor was on) kept under a key: `b` then the key sets it, `'` then
/// the key goes there, `B` lists them. Kept in `$XDG_STATE_HOME/qlbrowse/bookmarks` across runs.
public struct Bookmark: Sendable, Equatable, Codable {
    /// One character.
    public var key: String
    public var folder: String
    /// The entry the cursor lands on.
    public var file: String?

    public init(key: String, folder: String, file: String?) {
        self.key = key
        self.folder = folder
        self.file = file
    }
}

/// Whether a bookmark's folder can be reached now, and if not, why ("the volume is not mounted").
public struct BookmarkCheck: Sendable, Equatable {
    public let folder: String
    /// Nil when the folder is there.
    public let problem: String?

    public init(folder: String, problem: String?) {
        self.folder = folder
        self.problem = problem
    }
}
