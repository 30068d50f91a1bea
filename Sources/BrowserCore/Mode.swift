import FileSystemKit
import SystemKit

/// What the browser is doing, one at a time: the state switches on it once to decide what a key
/// or a result means.
public enum Mode: Sendable, Equatable {
    /// The list or the grid, keys move and act.
    case browsing
    /// Typing the filter after `/`.
    case filtering
    /// `F`: typing what to find below this folder, choosing among the matches.
    case finding
    /// Typing a name for `r` or `a`.
    case prompt(TextPrompt)
    /// A screen drawn over the browser.
    case overlay(Overlay)
    /// Waiting for the one key that names a bookmark (after `b`, `'`, or `r` in the bookmarks list).
    case awaitingKey(KeyQuestion)
}

/// What the next key names.
public enum KeyQuestion: Sendable, Equatable {
    /// `b`: the key to keep this folder (and the entry under the cursor) under.
    case setBookmark
    /// `'`: the bookmark to go to.
    case jumpToBookmark
    /// `r` in the bookmarks list: the new key of the bookmark under this key.
    case rekeyBookmark(String)
    /// After connecting with a typed password: y keeps it in the keyring, any other key not.
    case keepPassword(url: String)
    /// A paste that moves `sources` from `place` (a place without a trash: SFTP) into
    /// `destination`: y deletes each original for good once its copy is checked, any other key
    /// moves nothing (`BrowserState+MoveQuestion`).
    case deleteSourcesForGood(sources: [String], destination: String, place: String)
}

/// A screen drawn over the browser.
public enum Overlay: Sendable, Equatable {
    case quickLook
    case help
    /// Every mounted volume; Enter opens one.
    case volumes
    /// Running and finished jobs; `c` cancels one, Enter starts a stopped one again.
    case jobs
    /// The bookmarks, each with whether its folder can be reached; Enter goes, d deletes, r rekeys.
    case bookmarks
    /// `R`: the renames the edited names make, checked; Enter or y does them all, Esc none.
    case bulkRenamePlan(folder: String, BulkRenamePlan)
    /// `T` on a removable or network volume asks where thumbnails go.
    case confirmBatch(folder: String)
    /// `D` names what it will delete for good and waits for y.
    case confirmDelete([String])
    /// A paste found a name taken: overwrite, skip or keep both (capitals: for all).
    case conflict(job: Int, FileOperation.Conflict)

    /// Overlays that ask a question and take single-letter answers.
    public var isQuestion: Bool {
        switch self {
        case .conflict, .confirmDelete, .bulkRenamePlan: return true
        default: return false
        }
    }

    /// Overlays of text over the browser (pictures are taken down while they are open).
    public var coversPictures: Bool { self != .quickLook }
}
