import FileSystemKit
import Places
import SystemKit
import ThumbnailKit

/// A picture of one file at one size: what is fetched, kept and drawn.
struct PictureKey: Hashable, Sendable {
    /// Which picture of the file: its thumbnail, a document's page, a video's frame.
    enum Part: Hashable, Sendable {
        case whole
        case page(Int)
        case frame(milliseconds: Int)
        /// What a custom previewer drew.
        case custom
        /// A photo enlarged `zoom` times, centred on (x, y) in thousandths of its size.
        case region(zoom: Int, x: Int, y: Int)
    }

    let path: String
    /// Side of the requested box in pixels.
    let side: Int
    /// Folders and archives get only their icon.
    let iconOnly: Bool
    var part: Part = .whole
    /// For a page or a frame: the box in pixels it is made to fit (the cells it is drawn in).
    var box: PixelSize?
    /// The file's version as listed (mtime and size), handed to the place as the item's
    /// version. Not part of the key's identity: a file that changed under its name has its
    /// pictures forgotten by path (`.forgetPictures`), as before.
    var listed: FileStamp?
    /// Whether the entry is a folder (with `listed`, what the place is told of the item).
    var isFolder = false

    /// The one way a key is made for an entry, so that every screen asks for and finds the same picture.
    static func of(_ entry: Entry, in folder: String, side: Int, part: Part = .whole) -> PictureKey {
        PictureKey(path: entry.path(in: folder), side: side, iconOnly: entry.isDirectory || entry.kind == .archive, part: part,
                   listed: FileStamp(modified: entry.modified, size: entry.size), isFolder: entry.isDirectory)
    }

    /// The file as the place is asked for its thumbnails.
    var item: PlaceItem {
        PlaceItem(path: path, isDirectory: isFolder, size: listed?.size ?? 0, modified: listed?.modified ?? 0)
    }

    /// Keys compare their paths as bytes: String equality takes the NFC and NFD spellings of a
    /// name (two files side by side on Linux) for one, and would show one file's picture for the other.
    static func == (left: PictureKey, right: PictureKey) -> Bool {
        left.path.utf8.elementsEqual(right.path.utf8) && left.side == right.side && left.iconOnly == right.iconOnly
            && left.part == right.part && left.box == right.box
    }

    func hash(into hasher: inout Hasher) {
        // The path's bytes, as == compares them (a bridged string without contiguous storage is copied).
        path.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            ?? Array(path.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(side)
        hasher.combine(iconOnly)
        hasher.combine(part)
        hasher.combine(box)
    }

    /// A frame's time in milliseconds (-1 for other parts).
    var frameTime: Int { if case .frame(let milliseconds) = part { return milliseconds } else { return -1 } }

    var isFrame: Bool { if case .frame = part { return true } else { return false } }

    /// Another frame of the same video in the same place.
    func showsSameMovingPicture(as other: PictureKey) -> Bool {
        isFrame && other.isFrame && path.utf8.elementsEqual(other.path.utf8) && box == other.box
    }

    /// The same file's thumbnail at the same size (its type and facts stand for every part).
    var whole: PictureKey { PictureKey(path: path, side: side, iconOnly: iconOnly, listed: listed, isFolder: isFolder) }
}
