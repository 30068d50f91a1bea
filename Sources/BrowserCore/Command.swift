/// What a key can ask for, whatever the screen; the names are the ones config.toml uses. The
/// state decides what a command means in the mode it is in (`BrowserState.apply(.key…)`).
public enum Command: String, CaseIterable, Sendable {
    case down, up, left, right, parent, open, top, bottom
    case pageDown = "page-down", pageUp = "page-up"
    case filter, hidden, sort, extensions, view
    case quickLook = "quick-look", help, quit, volumes
    case batch = "thumbnail-folder", jobs, cancel
    case mark, invertMarks = "invert-marks", unmark = "clear-marks", copy, cut, paste, rename, create, trash
    case delete, restore, redraw
    case bookmark, jumpToBookmark = "jump-to-bookmark", bookmarks, back, forward
    case find, undo, redo, bulkRename = "bulk-rename"
    case newTab = "new-tab", nextTab = "next-tab", previousTab = "previous-tab", closeTab = "close-tab"
}
