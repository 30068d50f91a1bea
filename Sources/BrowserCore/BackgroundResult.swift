import FileSystemKit
import SystemKit
import ThumbnailKit

/// What background work, the shell and the clock report back to the state: listings, volumes,
/// jobs, the finder, Quick Look's previewers, saved edits, the bookmarks file. None of it comes
/// from the user, so none of it clears the status message (`BrowserState.apply(_:)` for this
/// type never does; for `BrowserAction` it always does).
public enum BackgroundResult: Sendable, Equatable {
    /// The clock (monotonic nanoseconds), on every turn of the event loop: notices a stalled
    /// listing and turns the spinner.
    case tick(now: Int64)
    case listed(ticket: Int, entries: EntryStore, complete: Bool)
    case listingFailed(ticket: Int, reason: String)
    /// The listing failed because the volume under it is gone (not a bad folder).
    case listingLostVolume(ticket: Int)
    /// The listing of the current folder has not answered for a while.
    case listingStalled(ticket: Int, volume: String)
    /// List the current folder again (after a file operation), keeping the filter and the
    /// cursor; with `select`, the cursor goes to that entry. `showsAll`: what the operation made
    /// or brought back must be seen (a rename, a new file, an undo, a restore), so a kept filter
    /// goes (one being typed stays).
    case reload(select: [UInt8]?, showsAll: Bool = false)
    /// The watched `folder` changed by itself (a file made, changed or gone there, on any place
    /// that watches): list it again keeping the cursor's entry, the filter and the marks.
    case folderChanged(folder: String)
    /// A line for the status bar from work that finished or failed.
    case showMessage(String)
    /// The mount table or a volume's state changed.
    case volumesChanged([VolumeMonitor.Status])
    /// Background work found the volume mounted here gone or dead.
    case volumeLost(mountPoint: String)
    /// The volume under the current folder is gone; go to `fallback`, a folder off that volume.
    case volumeGone(label: String, fallback: String)
    /// What a volume allows, as probed.
    case capabilitiesFound(mountPoint: String, VolumeCapabilities)
    /// A job's progress or end.
    case jobChanged(JobStatus)
    /// A running file operation found a name taken and waits for the user.
    case conflictAsked(job: Int, FileOperation.Conflict)
    /// A paste would move `sources` from `place`, which has no trash (SFTP), into `destination`:
    /// nothing started; the user is asked whether the originals may be deleted for good.
    case moveNeedsYes(sources: [String], destination: String, place: String)
    /// Items a job moved to the trash (for `U`).
    case trashed([TrashCan.Item])
    /// What a previewer found out about the file Quick Look shows (pages, lines, duration).
    case quickLookFacts(path: String, QuickLookFacts)
    /// The edit was saved.
    case editSaved(EditOutcome)
    /// The edit could not be saved (or was cancelled): the original is as it was.
    case editFailed(path: String, reason: String)
    /// `U` put back the original an edit had replaced.
    case editRestored(path: String)
    /// The bookmarks file was read (at start), with what went wrong reading it.
    case bookmarksLoaded([Bookmark], problem: String?)
    /// A bookmark's folder was checked before going there.
    case bookmarkChecked(Bookmark, problem: String?)
    /// The bookmarks list's folders were checked.
    case bookmarksChecked([BookmarkCheck])
    /// What the finder found so far for the search numbered `ticket`.
    case found(ticket: Int, FileFinder.Report)
    /// What came back from the editor for `R` (nil: not saved).
    case namesEdited(folder: String, names: [String], edited: [String]?)
    /// Drives found, mounted, ejected; servers connected (issue 25).
    case drives(DrivesResult)
}
