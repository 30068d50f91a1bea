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
    case promptInput(String), promptBackspace, promptMove(Int), promptAccept, promptCancel
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
    /// background work reporting in.
    public var isFromUser: Bool {
        switch self {
        case .listed, .listingFailed, .showMessage, .volumesChanged, .listingStalled, .volumeGone, .jobChanged, .capabilitiesFound,
             .conflictAsked, .trashed, .reload: return false
        default: return true
        }
    }
}

/// Work the UI must do for the state: list a folder, open a file, leave.
public enum BrowserEffect: Sendable, Equatable {
    case list(folder: String, ticket: Int)
    case startBatch(folder: String, shared: Bool)
    case cancelJob(id: Int)
    case pauseJob(id: Int, paused: Bool)
    case fileOperation(FileOperation.Kind, sources: [String], destination: String?)
    case rename(from: String, to: String)
    case create(path: String, folder: Bool)
    case restore([TrashCan.Item])
    case resolveConflict(job: Int, FileOperation.ConflictChoice, applyToAll: Bool)
    case openFile(path: String, kind: String)
    case quit(folder: String)
}

/// A screen drawn over the browser.
public enum Overlay: Sendable, Equatable {
    case quickLook
    case help
    /// Every mounted volume; Enter opens one.
    case volumes
    /// Running and finished jobs; `c` cancels one, Enter starts a stopped one again.
    case jobs
    /// `T` on a removable or network volume asks where thumbnails go.
    case confirmBatch(folder: String)
    /// `D` names what it will delete for good and waits for y.
    case confirmDelete([String])
    /// A paste found a name taken: overwrite, skip or keep both (capitals: for all).
    case conflict(job: Int, FileOperation.Conflict)
}
