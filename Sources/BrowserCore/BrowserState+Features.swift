import FileSystemKit
import SystemKit

/// The features' state under the names the views and the reducers read: each lives in its
/// feature's struct (`volumeState`, `fileState`, `jobState`, `bookmarkState`, `tabState`).
extension BrowserState {
    /// Every mounted volume, as the monitor last saw it.
    public internal(set) var volumes: [VolumeMonitor.Status] {
        get { volumeState.statuses }
        set { volumeState.statuses = newValue }
    }
    /// The cursor in the volumes view.
    public internal(set) var volumeCursor: Int {
        get { volumeState.cursor }
        set { volumeState.cursor = newValue }
    }
    /// What each volume allows (by mount point), once probed.
    public internal(set) var capabilities: [String: VolumeCapabilities] {
        get { volumeState.capabilities }
        set { volumeState.capabilities = newValue }
    }
    /// What `y`/`x` put aside.
    public internal(set) var clipboard: Clipboard? {
        get { fileState.clipboard }
        set { fileState.clipboard = newValue }
    }
    /// What the last trash job moved away, for `U`.
    public internal(set) var lastTrashed: [TrashCan.Item] {
        get { fileState.lastTrashed }
        set { fileState.lastTrashed = newValue }
    }
    /// The original an edit last replaced (in the Trash) and the edited file in its place, for `U`.
    public internal(set) var lastReplaced: ReplacedOriginal? {
        get { fileState.lastReplaced }
        set { fileState.lastReplaced = newValue }
    }
    /// Background jobs, oldest first.
    public internal(set) var jobs: [JobStatus] {
        get { jobState.list }
        set { jobState.list = newValue }
    }
    /// The cursor in the jobs panel.
    public internal(set) var jobCursor: Int {
        get { jobState.cursor }
        set { jobState.cursor = newValue }
    }
    /// Bookmarks by key, as last read or written.
    public internal(set) var bookmarks: [Bookmark] {
        get { bookmarkState.list }
        set { bookmarkState.list = newValue }
    }
    /// The cursor in the bookmarks list.
    public internal(set) var bookmarkCursor: Int {
        get { bookmarkState.cursor }
        set { bookmarkState.cursor = newValue }
    }
    /// What the last check found of each bookmarked folder: "" reachable, else why not.
    public internal(set) var bookmarkProblems: [String: String] {
        get { bookmarkState.problems }
        set { bookmarkState.problems = newValue }
    }
    var bookmarksRead: Bool {
        get { bookmarkState.read }
        set { bookmarkState.read = newValue }
    }
    var pendingJump: String? {
        get { bookmarkState.pendingJump }
        set { bookmarkState.pendingJump = newValue }
    }
    /// Open tabs, in order (empty while there is one); the one shown is kept up to date only when left.
    public internal(set) var tabs: [BrowserTab] {
        get { tabState.list }
        set { tabState.list = newValue }
    }
    /// Which of `tabs` is shown.
    public internal(set) var currentTab: Int {
        get { tabState.current }
        set { tabState.current = newValue }
    }
}
