import FileSystemKit
import SystemKit
import ThumbnailKit

/// A place files live in: the local file system today, a remote machine over SSH or a mounted
/// server next (issues #25, #26). What Apple's File Provider is to Finder, this is to the browser,
/// the batch and the commands: everything above it lists, looks up, reads, writes, watches,
/// moves and asks for thumbnails only through it, so a new kind of place is one new type.
///
/// Every call is asynchronous and every failure a `FileSystemError` (a volume gone, a place that
/// does not answer within its deadline, a name taken…). Paths are Strings carried losslessly
/// (`FileSystemBytes`): a name that is not UTF-8 goes through a place unchanged.
public protocol Place: Sendable {
    /// What the place is called in messages ("this computer", "nas:/photos").
    var name: String { get }

    /// Lists `folder` in batches, off the caller's thread: `deliver` gets packed batches, the last
    /// with `complete: true`, or a failure (`.notResponding` when the place stalls past its
    /// deadline). A small first batch comes at once so the first screen paints before a huge
    /// folder is read. Cancelling the returned task ends the listing; a cancelled listing says
    /// nothing more.
    @discardableResult
    func list(_ folder: String, deliver: @escaping @Sendable (_ batch: EntryStore, _ complete: Bool, _ failure: FileSystemError?) -> Void) -> PlaceTask

    /// Whether `folder` can be listed now: nil when it answers, else why not (`.notResponding`
    /// when it did not answer within a short deadline; the errno of the failure otherwise). A
    /// listing, not a stat: smbnetfs answers a stat from its cache after the server is gone.
    func probe(_ folder: String) async -> FileSystemError?

    /// What is at `path` (a symbolic link reported as what it points to, marked as a link).
    func item(at path: String) async throws(FileSystemError) -> PlaceItem

    /// Up to `length` bytes of the file at `path` from `offset` (fewer at its end): the first
    /// bytes are enough for embedded previews, so nothing reads a whole file it does not need.
    func read(_ path: String, offset: Int, length: Int) async throws(FileSystemError) -> [UInt8]

    /// `count` lines of the text file at `path` from line `first` (the last `count` when `first`
    /// is past the end), each cut at `TextFileWindow.maxLineBytes`, and the line count once known:
    /// Quick Look's text, read where the file is a window at a time (a 2 GB log is never read
    /// whole, nor sent). A file that is not a regular one fails `.unsupported` with what it is.
    func textLines(_ path: String, from first: Int, count: Int) async throws(FileSystemError) -> TextFileWindow.Lines

    /// Writes `bytes` as the whole new content of `path`, atomically (the old content or the new,
    /// never a mix, never a partial file).
    func write(_ bytes: [UInt8], to path: String) async throws(FileSystemError)

    /// Writes `bytes` at `offset` of `path`, a piece of a copy coming from another place: at
    /// offset 0 the file is made, never over an existing name (`.exists`; the copy's temporary
    /// is its own), later pieces go where they belong; after the `last` piece the file is on
    /// disk, ready to be renamed into place. With a `mode` (the source's permission bits, as
    /// `PlaceTransfer.keptMode` keeps them), the file is made 0600 and given `mode` after the
    /// `last` piece: a private file is never more open on its way than where it came from.
    /// Without one, it is made 0644 (less the umask).
    func writeChunk(_ bytes: [UInt8], to path: String, at offset: Int, last: Bool, mode: UInt32?) async throws(FileSystemError)

    /// Sets the permission bits of `path` (`chmod`): a folder copied from another place gets its
    /// source's once its contents are in (a read-only folder can still be filled).
    func setMode(_ path: String, to mode: UInt32) async throws(FileSystemError)

    /// Changes in `folder` as they happen, until the stream's consumer stops listening or the
    /// folder is gone (`.gone`, then the end). Throws when the folder cannot be watched, or when
    /// its volume does not answer within a call's deadline (starting a watch looks the folder up).
    func watch(_ folder: String) async throws(FileSystemError) -> AsyncStream<PlaceChange>

    /// Renames within a folder, never over an existing name (`.exists`); the item's stamp at its
    /// new name, for the undo journal.
    func rename(_ path: String, to newPath: String) async throws(FileSystemError) -> PathStamp?

    /// What is at `path` now (nil: nothing there), not following a last link: its identity, size
    /// and time as the place's own file system says (a remote's `lstat`), for the undo journal's
    /// check that a file is as an operation left it.
    func stamp(_ path: String) async throws(FileSystemError) -> PathStamp?

    /// Whether `stamp` works here, so that what is done to this place's files is written in the
    /// undo journal (false: a test's place, the SFTP fallback, which has no file identities).
    var stampsFiles: Bool { get }

    /// Makes an empty folder or file at `path`, never over an existing name; its stamp.
    func make(_ path: String, folder: Bool) async throws(FileSystemError) -> PathStamp?

    /// Moves an item to the place's trash; where it went, to put it back.
    func trash(_ path: String) async throws(FileSystemError) -> TrashCan.Item

    /// Whether `trash` can work here (false: an SFTP server). A copy between places overwrites
    /// and a move removes its sources only through a trash, so without one they are refused
    /// (a move's sources deleted for good only with `FileOperation.deletesSourcesForGood`).
    var hasTrash: Bool { get }

    /// Puts a trashed item back (beside, as "name (2)", when its place is taken); where it went.
    func restore(_ item: TrashCan.Item) async throws(FileSystemError) -> String

    /// Runs a copy, move, trash or delete with its progress, questions and report, as
    /// `FileOperation` has them. Throws only when the place did not answer (the report says what
    /// was done otherwise): `.notResponding`, with the operation cancelled.
    func perform(_ operation: FileOperation, events: FileOperationEvents) async throws(FileSystemError) -> FileOperation.Report

    /// Finds names below `folder` as the user types (`F`): the place walks its folder where the
    /// files are, leaving out other volumes (`skipping` their mount points; nil: the place's own
    /// mount table), and ranks the walk against each query the returned handle is told,
    /// reporting the best matches relative to `folder` through `report`, or why it cannot find.
    func find(under folder: String, showsHidden: Bool, skipping mountPoints: [String]?,
              report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceFind

    /// Finds the files below `folder` whose content holds `query` (Tab in `F`), where the files
    /// are (ripgrep there), reporting the first `limit` paths relative to `folder` and how many
    /// in all as they come, the last report `complete`; or why it cannot. One search per query:
    /// cancelling the task stops it (ripgrep is killed) and it reports nothing more.
    func findInside(_ folder: String, query: String, limit: Int,
                    report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceTask

    /// What `folder`'s volume allows (links, permissions, names, sizes); `trial` writes a test file.
    func capabilities(of folder: String, trial: Bool) async throws(FileSystemError) -> VolumeCapabilities

    /// Thumbnails for `items`, as File Provider's `fetchThumbnails(for:requestedSize:…)`: each
    /// item's picture (or why there is none) through `perItem`, as each is ready, keyed by the
    /// item's version (with `options.checksVersion`, an item changed since it was listed fails,
    /// never shows a stale picture); with `options.progressive`, every representation of an item
    /// as it is made, lower quality first (the browser's icon, then low quality, then full). Then
    /// `completion` once, after the last `perItem`, with `.cancelled` if the progress was cancelled.
    /// The place makes them where the files are, with its own cache.
    @discardableResult
    func fetchThumbnails(for items: [PlaceItem], options: ThumbnailOptions,
                         perItem: @escaping @Sendable (PlaceItem, Result<Representation, ThumbnailError>) -> Void,
                         completion: @escaping @Sendable (ThumbnailError?) -> Void) -> PlaceProgress

    /// Thumbnails every file under `roots` (folders walked recursively, files taken as they are)
    /// into the place's cache, where the files are: on a remote place the walk, the cache look-ups
    /// and the decoding run on its side and only the events cross. Skips what is cached; reports
    /// as `ThumbnailBatch` does (the walk's total, folders not listed, each file's outcome).
    /// Ending the iteration (or cancelling the iterating task) stops it; nothing partial is written.
    func thumbnailFolders(_ roots: [String], options: BatchOptions) -> AsyncStream<ThumbnailBatch.Event>

    /// Quick Look's views of a whole file (a document's pages, a video's frames, a photo's
    /// enlarged region, an archive's members, a song's length, custom previewers), made where the
    /// files are: a `PreviewGenerator` whose worker requests run on the place's side (a remote
    /// place hands it a backend that relays the workers' frames over its link, as the resident
    /// service relays them); nil when the place makes none (Quick Look then shows why).
    var previews: PreviewGenerator? { get }
}

extension Place {
    /// A place that cannot walk its folders says so when the search starts.
    public func find(under folder: String, showsHidden: Bool, skipping mountPoints: [String]?,
                     report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceFind {
        .refused(FileSystemError(code: .unsupported, path: folder, context: "finding names is not done in \(name)"), report: report)
    }

    /// A place that cannot look inside its files says so at once.
    public func findInside(_ folder: String, query: String, limit: Int,
                           report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceTask {
        report(.failure(FileSystemError(code: .unsupported, path: folder, context: "looking inside files is not done in \(name)")))
        return PlaceTask()
    }
}

extension Place {
    /// A place without file identities says so: nothing done there is journaled.
    public func stamp(_ path: String) async throws(FileSystemError) -> PathStamp? {
        throw FileSystemError(code: .unsupported, path: path, context: "undo is not done in \(name)")
    }

    public var stampsFiles: Bool { false }
}

extension Place {
    /// A piece of a file made as a new file is (0644 less the umask): not a copy of another's.
    public func writeChunk(_ bytes: [UInt8], to path: String, at offset: Int, last: Bool) async throws(FileSystemError) {
        try await writeChunk(bytes, to: path, at: offset, last: last, mode: nil)
    }
}

extension Place {
    /// Every place but the SFTP fallback has a trash (this computer's, or the remote's own).
    public var hasTrash: Bool { true }
}

extension Place {
    /// The listing as an asynchronous sequence of batches (ending with the last, or throwing the
    /// failure); ending the iteration cancels the listing.
    public func listing(_ folder: String) -> AsyncThrowingStream<EntryStore, any Error> {
        let (stream, continuation) = AsyncThrowingStream<EntryStore, any Error>.makeStream()
        let task = list(folder) { batch, complete, failure in
            if !batch.isEmpty { continuation.yield(batch) }
            if let failure {
                continuation.finish(throwing: failure)
            } else if complete {
                continuation.finish()
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// One item's thumbnails as an asynchronous sequence (`fetchThumbnails` for one item, with
    /// the item's failure thrown); ending the iteration cancels the fetch.
    public func thumbnails(of item: PlaceItem, options: ThumbnailOptions) -> AsyncThrowingStream<Representation, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Representation, any Error>.makeStream()
        let progress = fetchThumbnails(for: [item], options: options, perItem: { _, result in
            switch result {
            case .success(let representation): continuation.yield(representation)
            case .failure(let error): continuation.finish(throwing: error)
            }
        }, completion: { error in
            if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        })
        continuation.onTermination = { _ in progress.cancel() }
        return stream
    }

    /// The whole listing of `folder` in one store.
    public func entries(of folder: String) async throws -> EntryStore {
        var all = EntryStore()
        for try await batch in listing(folder) { _ = all.append(contentsOf: batch) }
        return all
    }
}
