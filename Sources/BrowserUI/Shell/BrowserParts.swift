import FileSystemKit
import Places
import SystemKit
import ThumbnailKit

/// What a browser is built from besides its screen: where pictures are decoded, the thumbnail
/// cache, the undo journal, the clock. The browse command builds the real ones; a test builds
/// its own (a worker backend that records what is asked, a cache in a temporary folder).
public struct BrowserParts: Sendable {
    /// Quick Look's pages, frames, members and previewers.
    package var previews: any WorkerBackend
    /// The thumbnails of the list, the grid and the preview pane: the resident service's client,
    /// or the same workers as `previews` (DECISIONS.md: "Browsers share the service's workers").
    package var thumbnails: any WorkerBackend
    /// `T` jobs' own worker, beside the others rather than in their queue.
    package var jobs: any WorkerBackend
    /// Quick Look's edits' own worker, with an edit's long deadline (`EditSaver.workerLimits`).
    package var edits: any WorkerBackend
    public var cache: ThumbnailCache
    /// Where each finished file operation is written down, for `z`.
    public var journal: UndoJournal
    /// Where the files are: nil, the local file system (a `LocalPlace` made of these parts'
    /// backends and cache, on the volumes the state knows); a test gives another (`MemoryPlace`).
    /// The listing, the pictures, Quick Look's previews, `T` and the file jobs all go through it.
    package var place: (any Place)?
    /// Remote places connected before the browser starts (`qlbrowse ssh://…`), each under its
    /// prefix (`PlacePath.prefix`) with its status-line label; more join from the connect prompt.
    package var remotes: [(prefix: String, place: any Place, label: String?)] = []
    /// The clock the state is told on every turn of the loop.
    public var time: any TimeSource
    /// Lets the previews' and thumbnails' workers go when the browser quits (the jobs' and the
    /// edits' go with their runners, once these have stopped).
    public var shutdown: @Sendable () async -> Void

    package init(previews: any WorkerBackend, thumbnails: any WorkerBackend, jobs: any WorkerBackend, edits: any WorkerBackend,
                 cache: ThumbnailCache, journal: UndoJournal, time: any TimeSource, place: (any Place)? = nil,
                 shutdown: @escaping @Sendable () async -> Void) {
        self.previews = previews
        self.thumbnails = thumbnails
        self.jobs = jobs
        self.edits = edits
        self.cache = cache
        self.journal = journal
        self.time = time
        self.place = place
        self.shutdown = shutdown
    }

    /// The journal at its place in the user's state folder, written atomically.
    public static func userJournal() -> UndoJournal {
        UndoJournal(path: ProcessEnvironment.current.stateHome + "/qlbrowse/journal.json") { try? AtomicFileWriter.writeState($0, to: $1) }
    }
}
