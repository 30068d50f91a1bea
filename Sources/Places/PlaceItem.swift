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
    /// The permission bits (`st_mode & 0o7777`), when the place says them (nil: not known). A copy
    /// between places gives its copy these (`PlaceTransfer.keptMode`); not part of the item's
    /// identity or version (`==` and `hash` leave them out: a chmod does not change a thumbnail).
    public let mode: UInt32?

    public init(path: String, isDirectory: Bool, isSymbolicLink: Bool = false, isRegularFile: Bool? = nil, size: Int, modified: Int,
                mode: UInt32? = nil) {
        self.path = path
        self.isDirectory = isDirectory
        self.isSymbolicLink = isSymbolicLink
        self.isRegularFile = isRegularFile ?? !isDirectory
        self.size = size
        self.modified = modified
        self.mode = mode
    }

    public static func == (left: PlaceItem, right: PlaceItem) -> Bool {
        left.path == right.path && left.isDirectory == right.isDirectory && left.isSymbolicLink == right.isSymbolicLink
            && left.isRegularFile == right.isRegularFile && left.size == right.size && left.modified == right.modified
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(isDirectory)
        hasher.combine(isSymbolicLink)
        hasher.combine(isRegularFile)
        hasher.combine(size)
        hasher.combine(modified)
    }

    /// The item's version, mtime and size, as File Provider's `itemVersion`: the thumbnail cache's
    /// key (`Thumb::MTime`, `Thumb::Size`), and what tells a changed item from the one listed.
    public var version: FileStamp { FileStamp(modified: modified, size: size) }
}
