import FileSystemKit
import SystemKit
import ThumbnailKit

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
    /// The move the user said yes to: from a place without a trash, each original deleted for
    /// good once its copy is in place and checked (`FileOperation.deletesSourcesForGood`).
    case moveDeletingSources(sources: [String], destination: String)
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
    /// Write these bookmarks into the file, keeping the file's own under other keys: set before
    /// the file was read, so the list in the state does not hold them yet.
    case addBookmarks([Bookmark])
    /// See whether a bookmark's folder can be reached (within the volume's deadline), then go.
    case checkBookmark(Bookmark)
    /// See which of these folders can be reached, for the bookmarks list.
    case checkBookmarks([String])
    /// Draw everything again, pictures included.
    case redraw
    case quit(folder: String)
    /// Mount, eject, connect, look for drives (off the UI thread).
    case drives(DrivesEffect)
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
