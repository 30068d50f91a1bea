import ThumbnailKit

/// One item of a place, as `Place.item(at:)` finds it and `fetchThumbnails` takes it: enough to
/// draw it and to know whether it changed since (its version).
public struct PlaceItem: Sendable, Hashable {
    /// The item's full path in its place (a String carrying the name's own bytes).
    public let path: String
    public let isDirectory: Bool
    /// True when the path is a symbolic link; the rest then describes what it points to.
    public let isSymbolicLink: Bool
    /// A regular file (not a folder, device, FIFO or socket): only these have content to read.
    public let isRegularFile: Bool
    public let size: Int
    /// Modification time, seconds since 1970.
    public let modified: Int

    public init(path: String, isDirectory: Bool, isSymbolicLink: Bool = false, isRegularFile: Bool? = nil, size: Int, modified: Int) {
        self.path = path
        self.isDirectory = isDirectory
        self.isSymbolicLink = isSymbolicLink
        self.isRegularFile = isRegularFile ?? !isDirectory
        self.size = size
        self.modified = modified
    }

    /// The item's version, mtime and size, as File Provider's `itemVersion`: the thumbnail cache's
    /// key (`Thumb::MTime`, `Thumb::Size`), and what tells a changed item from the one listed.
    public var version: FileStamp { FileStamp(modified: modified, size: size) }
}
