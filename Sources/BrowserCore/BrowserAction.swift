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
}
