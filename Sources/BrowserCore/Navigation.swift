import FileSystemKit
import SystemKit

/// Where the user is: the folder, what was listed of it, what is shown and where the cursor is.
/// Kept whole so that giving up on a stuck volume can go back to it without touching anything
/// else that happened meanwhile (jobs, volumes, the trash).
public struct Navigation: Sendable, Equatable {
    public var folder: String
    /// Every entry listed so far, in listing order, packed.
    public var store = EntryStore()
    /// Indices into `store` of the entries shown (hidden files and the filter applied), sorted.
    var order: [EntryHandle] = []
    public var cursor = 0
    /// The first list row (list view) or grid row (grid view) on screen.
    public var top = 0
    public var filter = ""
    public var listingComplete = false
    public var listingError: String?
    /// Live Photos found so far: their movies are shown through their stills.
    public var livePhotos = LivePhotoPairs()
    /// Names marked in this folder (`m`).
    public var marked: Set<[UInt8]> = []
    /// The name to put the cursor on when the listing arrives (the folder we came up from).
    var pendingSelection: [UInt8]?
    /// Whether the cursor is on an entry the user chose (by moving, or coming up from a folder); until
    /// then it stays on the first row while a listing streams in, as a user opening a folder expects.
    var cursorFollowsEntry = false
    /// Whether the user jumped to the end (`G`) while the listing was still arriving: the cursor
    /// then stays on the last entry as more come in.
    var cursorFollowsEnd = false

    init(folder: String, select name: [UInt8]? = nil) {
        self.folder = folder
        self.pendingSelection = name
    }
}
