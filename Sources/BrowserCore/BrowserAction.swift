import FileSystemKit

/// Everything that can change the browser's state: keys turned into intentions, and results
/// of background work (carrying the ticket of the request they answer).
public enum BrowserAction: Sendable, Equatable {
    case moveDown(Int), moveUp(Int), moveLeft, moveRight
    case pageDown, pageUp, home, end
    case open, parent
    case toggleHidden, cycleSort, toggleView, toggleExtensions
    case startFilter, filterInput(String), filterBackspace, filterAccept, filterCancel
    case quickLook, closeOverlay, help
    case quit
    case resize(rows: Int, columns: Int)
    case click(row: Int, column: Int)
    case scroll(Int)
    case listed(ticket: Int, entries: EntryStore, complete: Bool)
    case listingFailed(ticket: Int, reason: String)
    case showMessage(String)
    /// The mount table or a volume's state changed.
    case volumesChanged([VolumeMonitor.Status])
    /// The listing of the current folder has not answered for a while.
    case listingStalled(ticket: Int, volume: String)
    /// The volume under the current folder is gone; go to `fallback`, a folder off that volume.
    case volumeGone(label: String, fallback: String)
    /// `V`: the volumes view on or off.
    case toggleVolumes
}

/// Work the UI must do for the state: list a folder, open a file, leave.
public enum BrowserEffect: Sendable, Equatable {
    case list(folder: String, ticket: Int)
    case openFile(path: String, kind: String)
    case quit(folder: String)
}

/// A screen drawn over the browser.
public enum Overlay: Sendable, Equatable {
    case quickLook
    case help
    /// Every mounted volume; Enter opens one.
    case volumes
}
