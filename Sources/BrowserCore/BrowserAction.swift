import FileSystemKit
import SystemKit
import ThumbnailKit

/// Everything that can change the browser's state: keys (as pressed, with the command the key map
/// gives them), intentions, the clock, and results of background work (carrying the ticket of the
/// request they answer).
public enum BrowserAction: Sendable, Equatable {
    /// A key press and the command the user's key map binds it to; the mode decides what it does.
    case key(KeyPress, Command?)
    case moveDown(Int), moveUp(Int), moveLeft, moveRight
    case pageDown, pageUp, home, end
    case open, parent
    case toggleHidden, cycleSort, toggleView, toggleExtensions
    case startFilter, filterInput(String), filterBackspace, filterAccept, filterCancel
    case quickLook, closeOverlay, help
    /// Quick Look: ↓/↑ a page, a line or a few seconds; PgDn/PgUp a page, a screen or a tenth.
    case quickLookStep(Int), quickLookPage(Int)
    /// Quick Look: g (first) or G (last) page, line or time.
    case quickLookEdge(last: Bool)
    /// Quick Look: a digit of a page or line number to jump to with Enter.
    case quickLookDigit(String), quickLookJump
    /// Quick Look: long text lines wrap or are cut.
    case quickLookToggleWrap
    /// Quick Look: an EPUB, OpenDocument or comic book's members instead of its picture, and back (`m`).
    case quickLookToggleMembers
    /// Quick Look: a photo enlarged twice more (+1) or less (-1), and moved (hjkl) while enlarged.
    case quickLookZoom(Int), quickLookPan(x: Int, y: Int)
    /// Quick Look: play or pause a video, song or animation (`p`).
    case quickLookTogglePlay
    /// Quick Look: play a Live Photo's movie instead of its still (`p` on the still).
    case quickLookPlayMotion
    /// What a previewer found out about the file Quick Look shows (pages, lines, duration).
    case quickLookFacts(path: String, QuickLookFacts)
    /// Quick Look's edits: `e` starts editing the file shown.
    case editStart
    /// Turn by quarter turns clockwise: the page shown, or every page of a PDF.
    case editTurn(Int, everyPage: Bool)
    /// Mirror the picture left to right.
    case editMirror
    /// A trimmed video or song starts (true) or ends here.
    case editTrimPoint(start: Bool)
    case editClearTrim
    /// Enter: ask how to save (replace or copy).
    case editAskSave
    /// Save: a copy beside the original, or in its place with the original in the Trash.
    case editSave(copy: Bool)
    /// Esc: back one step (saving: cancel it; asking: back to editing; editing: leave, nothing written).
    case editLeave
    /// The edit was saved.
    case editSaved(EditOutcome)
    /// The edit could not be saved (or was cancelled): the original is as it was.
    case editFailed(path: String, reason: String)
    /// `U` put back the original an edit had replaced.
    case editRestored(path: String)
    /// `t` opens a tab on this folder; `1`–`9` show tab N (0-based here); `[`/`]` the one before or
    /// after; `w` closes the one shown.
    case newTab, switchTab(Int), stepTab(Int), closeTab
    /// `F`: find below this folder; typing, moving among the matches, going to one, giving up.
    case startFind, findInput(String), findBackspace, findMove(Int), findAccept, findCancel
    /// Tab while finding: names, or what is inside the files.
    case findToggleInside
    /// What the finder found so far for the search numbered `ticket`.
    case found(ticket: Int, FileFinder.Report)
    /// `z`/`Z`: take back the last file operation, or do again what was taken back.
    case undo, redo
    /// `R`: the marked names (or all shown) to the editor; what came back from it (nil: not saved).
    case startBulkRename, namesEdited(folder: String, names: [String], edited: [String]?)
    /// Enter on the checked plan: do every rename.
    case confirmBulkRename
    /// `H`/`L`: the folder before or after this one in the history.
    case historyBack, historyForward
    /// `b`, `'`: the next key sets or names a bookmark; `B`: the bookmarks list.
    case startBookmark, startJump, toggleBookmarks
    /// The key that answers a `KeyQuestion`.
    case keyAnswer(String)
    /// Esc while a key is awaited.
    case cancelKeyQuestion
    /// `d` in the bookmarks list.
    case deleteBookmark
    /// The bookmarks file was read (at start), with what went wrong reading it.
    case bookmarksLoaded([Bookmark], problem: String?)
    /// A bookmark's folder was checked before going there.
    case bookmarkChecked(Bookmark, problem: String?)
    /// The bookmarks list's folders were checked.
    case bookmarksChecked([BookmarkCheck])
    case quit
    /// Ctrl-L, or the terminal's focus coming back: everything drawn again, pictures included.
    case redraw
    case resize(rows: Int, columns: Int)
    case click(row: Int, column: Int)
    case scroll(Int)
    /// The clock (monotonic nanoseconds), on every turn of the event loop: notices a stalled
    /// listing and turns the spinner.
    case tick(now: Int64)
    case listed(ticket: Int, entries: EntryStore, complete: Bool)
    case listingFailed(ticket: Int, reason: String)
    /// The listing failed because the volume under it is gone (not a bad folder).
    case listingLostVolume(ticket: Int)
    /// Esc while a stuck volume is awaited: give up on it and go back to where the user was.
    case abandonWaiting
    case showMessage(String)
    /// The mount table or a volume's state changed.
    case volumesChanged([VolumeMonitor.Status])
    /// Background work found the volume mounted here gone or dead.
    case volumeLost(mountPoint: String)
    /// The listing of the current folder has not answered for a while.
    case listingStalled(ticket: Int, volume: String)
    /// The volume under the current folder is gone; go to `fallback`, a folder off that volume.
    case volumeGone(label: String, fallback: String)
    /// `V`: the volumes view on or off.
    case toggleVolumes
    /// `T`: thumbnail the folder under the cursor (or the current one) in the background.
    case startBatch
    /// Thumbnail into the personal cache only (false) or also into `.sh_thumbnails` (true), after `T` asked.
    case confirmBatch(shared: Bool)
    /// `J`: the jobs panel on or off.
    case toggleJobs
    /// Cancel the job under the jobs panel's cursor.
    case cancelJob
    /// A job's progress or end.
    case jobChanged(JobStatus)
    /// What a volume allows, as probed.
    case capabilitiesFound(mountPoint: String, VolumeCapabilities)

    // File operations
    case toggleMark, invertMarks, clearMarks
    case copyMarked, cutMarked, paste
    case startRename, startCreate
    case promptInput(String), promptBackspace, promptMove(Int), promptHome, promptEnd, promptAccept, promptCancel
    case trashMarked, deleteMarked, confirmDelete, restoreTrashed
    /// A running file operation found a name taken and waits for the user.
    case conflictAsked(job: Int, FileOperation.Conflict)
    case answerConflict(FileOperation.ConflictChoice, applyToAll: Bool)
    /// Items a job moved to the trash (for `U`).
    case trashed([TrashCan.Item])
    /// The pause key in the jobs panel.
    case togglePauseJob
    /// List the current folder again (after a file operation), keeping the cursor on `select`.
    case reload(select: [UInt8]?)
}

extension BrowserAction {
    /// Whether the action comes from the user (a key, the mouse, the terminal's size), not from
    /// background work or the clock reporting in.
    public var isFromUser: Bool {
        switch self {
        case .listed, .listingFailed, .listingLostVolume, .showMessage, .volumesChanged, .volumeLost, .listingStalled, .volumeGone, .jobChanged,
             .capabilitiesFound, .conflictAsked, .trashed, .reload, .tick, .quickLookFacts, .editSaved, .editFailed, .editRestored,
             .bookmarksLoaded, .bookmarkChecked, .bookmarksChecked, .found, .namesEdited:
            return false
        default: return true
        }
    }
}

/// Work the shell must do for the state: list a folder, run a job, open a file, leave.
public enum BrowserEffect: Sendable, Equatable {
    case list(folder: String, ticket: Int)
    /// Stop listing: the user gave up waiting on a stuck volume.
    case cancelListing
    case startBatch(folder: String, shared: Bool)
    case cancelJob(id: Int)
    /// Stop a job for a reason outside the user's wish (its volume went away).
    case stopJob(id: Int, reason: String)
    case pauseJob(id: Int, paused: Bool)
    case fileOperation(FileOperation.Kind, sources: [String], destination: String?)
    case rename(from: String, to: String)
    case create(path: String, folder: Bool)
    case restore([TrashCan.Item])
    case resolveConflict(job: Int, FileOperation.ConflictChoice, applyToAll: Bool)
    case openFile(path: String, kind: ContentKind)
    /// Ask a volume what it allows (reads only, no trial file).
    case probeCapabilities(Volume)
    /// Read lines of a text file for Quick Look: `count` from `line` (`line` past the end means
    /// the last screen; the reader says where it landed with `.quickLookFacts`).
    case readText(path: String, line: Int, count: Int)
    /// Play a song's or video's sound from `seconds` (nil: stop what plays).
    case playSound(path: String, seconds: Double)
    case stopSound
    /// Write Quick Look's edit of `path` in a worker: the edits in turn, then the result beside
    /// the original (`copy`) or in its place.
    case saveEdit(path: String, edits: [FileEdit], copy: Bool)
    /// Stop the edit being saved: its temporary goes, the original stays.
    case cancelEdit
    /// The file at `path` changed: its pictures are fetched again.
    case forgetPictures(path: String)
    /// `U` after an edit replaced a file: the edited file goes to the Trash and the original
    /// comes back under its name.
    case restoreReplaced(original: TrashCan.Item, edited: String)
    case undo, redo
    /// Open the names in `$EDITOR`, one per line (the shell waits for it and reports `.namesEdited`).
    case editNames(folder: String, names: [String])
    /// Do the renames of a checked bulk rename, all or none.
    case applyBulkRename(folder: String, [BulkRenamePlan.Change])
    /// Start finding names below `root` (numbered `ticket`), with `query`; again with a new query.
    case find(root: String, showsHidden: Bool, ticket: Int)
    case findQuery(String, insideFiles: Bool, ticket: Int)
    /// Stop the finding: its walk ends.
    case stopFind
    /// Read the bookmarks file.
    case loadBookmarks
    /// Write the bookmarks file (atomically).
    case saveBookmarks([Bookmark])
    /// See whether a bookmark's folder can be reached (within the volume's deadline), then go.
    case checkBookmark(Bookmark)
    /// See which of these folders can be reached, for the bookmarks list.
    case checkBookmarks([String])
    /// Draw everything again, pictures included.
    case redraw
    case quit(folder: String)
}

/// A saved edit, for the browser: where the result is, the original's place in the Trash when
/// the result replaced it, and what to tell the user.
public struct EditOutcome: Sendable, Equatable {
    public let path: String
    public let output: String
    public let trashed: TrashCan.Item?
    public let summary: String

    public init(path: String, output: String, trashed: TrashCan.Item?, summary: String) {
        self.path = path
        self.output = output
        self.trashed = trashed
        self.summary = summary
    }
}
