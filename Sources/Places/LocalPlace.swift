import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The local file system as a `Place`, built from what the browser always used: listings by
/// `DirectoryLister`, every call on its volume's threads through `VolumeIO` (a deadline per call,
/// a hung share abandoned and never waited for), file operations by `FileOperation` and
/// `TrashCan`, watching by inotify (`FolderWatch`), thumbnails by a `ThumbnailGenerator`.
/// This type and its extensions, with the FileSystemKit parts it is made of, are where the
/// program above the place layer meets the kernel (`scripts/architecture.py` checks it).
public final class LocalPlace: Place {
    public let name = "this computer"
    let io: VolumeIO
    let lister: DirectoryLister
    /// The mounted volumes as the caller knows them (their file system types).
    let volumes: @Sendable () -> [Volume]
    /// Their mount points: which volume's threads a path's call runs on, and which names in a
    /// folder are other volumes' mount points (never stat'ed by a listing).
    let mountPoints: @Sendable () -> [String]
    /// Where the home trash is (`$XDG_DATA_HOME`).
    let dataHome: String
    /// Makes thumbnails for `fetchThumbnails`; nil: only icons (drawn here, no worker).
    let thumbnails: ThumbnailGenerator?
    /// Quick Look's pages, frames, members and previewers (`Place.previews`).
    public let previews: PreviewGenerator?
    /// The workers `thumbnailFolders` decodes with (a batch's own, beside the browser's); nil:
    /// a pool of the batch's `jobs` workers, made for the batch and shut down after it.
    let batchWorkers: (any WorkerBackend)?
    /// Seconds a single call (stat, read, write, rename) may take; a listing or an operation may
    /// take longer as long as it makes progress (its heartbeat).
    let callDeadline: Double
    /// The line indexes of the text files Quick Look read lately (`textLines`).
    let textWindows = Mutex<[String: TextFileWindow]>([:])

    package init(io: VolumeIO = .shared, lister: DirectoryLister? = nil,
                 volumes: (@Sendable () -> [Volume])? = nil,
                 dataHome: String = ProcessEnvironment.current.dataHome, thumbnails: ThumbnailGenerator? = nil,
                 previews: PreviewGenerator? = nil, batchWorkers: (any WorkerBackend)? = nil, callDeadline: Double = 5) {
        self.io = io
        self.lister = lister ?? DirectoryLister(io: io)
        // The browser passes the volumes it keeps up to date. Without them a short call (an item,
        // a listing, one thumbnail) reads mountinfo once for its path's volume, without the sysfs
        // reads the volumes view's classification makes for every block device.
        if let volumes {
            self.volumes = volumes
            mountPoints = { volumes().map(\.mountPoint) }
        } else {
            self.volumes = { VolumeMonitor.currentVolumes() }
            mountPoints = { MountTable.currentMountPoints() }
        }
        self.dataHome = dataHome
        self.thumbnails = thumbnails
        self.previews = previews
        self.batchWorkers = batchWorkers
        self.callDeadline = callDeadline
    }

    /// The mount point of the volume `path` is on ("/" when none is known).
    public func mountPoint(of path: String) -> String {
        MountTable.mountPoint(containing: path, in: mountPoints())
    }

    @discardableResult
    public func list(_ folder: String, deliver: @escaping @Sendable (EntryStore, Bool, FileSystemError?) -> Void) -> PlaceTask {
        let known = mountPoints()
        let prefix = (folder == "/" ? "/" : folder + "/").fileSystemBytes
        // Mount points directly inside the folder: listed as folders without a stat that could
        // hang. Compared as bytes: a name that is not UTF-8 must match the listing's own bytes.
        let mounted = Set(known.map(\.fileSystemBytes).filter { $0.count > prefix.count && $0.starts(with: prefix) }
            .map { Array($0[prefix.count...]) }.filter { !$0.contains(UInt8(ascii: "/")) })
        let volume = MountTable.mountPoint(containing: folder, in: known)
        let listing = lister.list(folder, volume: volume, mountPoints: mounted, deliver: deliver)
        return PlaceTask(onCancel: listing.cancel)
    }

    public func probe(_ folder: String) async -> FileSystemError? {
        let volume = mountPoint(of: folder)
        switch await io.probeListing(folder, volume: volume) {
        case .listed: return nil
        case .failed(let code): return FileSystemError(errno: code, call: "opendir", path: folder)
        case .silent: return .notResponding(TerminalText.escaped(volume))
        }
    }

    public func item(at path: String) async throws(FileSystemError) -> PlaceItem {
        try await call(path) { () throws(FileSystemError) -> PlaceItem in
            var info = stat()
            guard lstat(path, &info) == 0 else { throw FileSystemError(errno: errno, call: "lstat", path: path) }
            let isLink = (info.st_mode & S_IFMT) == S_IFLNK
            if isLink {
                var target = stat()
                if stat(path, &target) == 0 { info = target }
            }
            return PlaceItem(path: path, isDirectory: (info.st_mode & S_IFMT) == S_IFDIR, isSymbolicLink: isLink,
                             isRegularFile: (info.st_mode & S_IFMT) == S_IFREG, size: Int(info.st_size), modified: Int(info.st_mtim.tv_sec),
                             mode: UInt32(info.st_mode & 0o7777))
        }
    }

    public func capabilities(of folder: String, trial: Bool) async throws(FileSystemError) -> VolumeCapabilities {
        let fsType = Volume.containing(folder, in: volumes())?.fsType ?? ""
        // A probe that only reads has 2 s; a trial file on the slowest volume gets an operation's 30.
        return try await call(folder, deadline: trial ? 30 : 2) { () throws(FileSystemError) in
            VolumeCapabilities.probe(folder: folder, fsType: fsType, trial: trial)
        }
    }

    /// Runs `work` on `path`'s volume's threads within `deadline` seconds (`callDeadline` when
    /// nil): `.notResponding` when it is past it, or when the volume has calls stuck already.
    func call<Value: Sendable>(_ path: String, deadline: Double? = nil,
                               _ work: @escaping @Sendable () throws(FileSystemError) -> Value) async throws(FileSystemError) -> Value {
        try await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, FileSystemError>, Never>) in
            run(path, deadline: deadline, work) { continuation.resume(returning: $0) }
        }.get()
    }

    /// `call` for a caller that is not a task (`qlbrowse serve`'s reading thread): `completion`
    /// hears the result or the volume's failure exactly once, on the call's thread or a timer's.
    func run<Value: Sendable>(_ path: String, deadline: Double? = nil, _ work: @escaping @Sendable () throws(FileSystemError) -> Value,
                              completion: @escaping @Sendable (Result<Value, FileSystemError>) -> Void) {
        let volume = mountPoint(of: path)
        io.run(volume: volume, deadline: deadline ?? callDeadline, { () -> Result<Value, FileSystemError> in
            do throws(FileSystemError) { return .success(try work()) } catch { return .failure(error) }
        }, completion: { outcome in
            switch outcome {
            case .done(let result): completion(result)
            case .timedOut: completion(.failure(.notResponding(TerminalText.escaped(volume))))
            case .refused: completion(.failure(.refused(TerminalText.escaped(volume))))
            }
        })
    }
}
