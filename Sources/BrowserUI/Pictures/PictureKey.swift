import FileSystemKit
import SystemKit

/// A picture of one file at one size: what is fetched, kept and drawn.
struct PictureKey: Hashable, Sendable {
    let path: String
    /// Side of the requested box in pixels.
    let side: Int
    /// Folders and archives get only their icon.
    let iconOnly: Bool

    /// The one way a key is made for an entry, so that every screen asks for and finds the same picture.
    static func of(_ entry: Entry, in folder: String, side: Int) -> PictureKey {
        PictureKey(path: entry.path(in: folder), side: side, iconOnly: entry.isDirectory || entry.kind == .archive)
    }
}
