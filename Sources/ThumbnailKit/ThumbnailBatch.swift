import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Thumbnails whole folders into the cache: walks them, skips what is already cached, makes the
/// rest in parallel, and reports each file as it completes (the shape of File Provider's
/// `fetchThumbnails`: per-item results, overall progress, cancellation by cancelling the task).
public struct ThumbnailBatch: Sendable {
    /// A deterministic share of the files, so several machines can split one library.
    public struct Shard: Sendable, Equatable {
        /// 1…count.
        public let index: Int
        public let count: Int

        public init?(index: Int, count: Int) {
            guard count >= 1, index >= 1, index <= count else { return nil }
            self.index = index
            self.count = count
        }

        /// Parses `I/N`.
        public init?(_ text: String) {
            let parts = text.split(separator: "/")
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
            self.init(index: index, count: count)
        }

        /// Whether this shard owns the file (by a hash of its path relative to the walked folder).
        public func owns(relativePath: String) -> Bool {
            let digest = MD5.digest(Array(relativePath.utf8))
            let value = Int(digest[0]) << 24 | Int(digest[1]) << 16 | Int(digest[2]) << 8 | Int(digest[3])
            return value % count == index - 1
        }
    }

    /// What happened to one file.
    public enum Outcome: Sendable {
        case generated(Representation)
        case alreadyCached
        case failed(ThumbnailError)
        case skipped(String)
    }

    public enum Event: Sendable {
        /// The walk finished: this many files will be looked at.
        case found(total: Int)
        /// Sent before `found` when folders could not be listed (their files were never reached):
        /// each with the reason (`strerror`). A vanished volume cuts the walk short this way.
        case unlisted([(folder: String, reason: String)])
        case file(path: String, outcome: Outcome)
    }

    private let generator: ThumbnailGenerator
    private let cache: ThumbnailCache
    public let box: PixelSize
    public let jobs: Int
    public let shard: Shard?

    public init(generator: ThumbnailGenerator, cache: ThumbnailCache, box: PixelSize, jobs: Int, shard: Shard? = nil) {
        self.generator = generator
        self.cache = cache
        self.box = box
        self.jobs = max(1, jobs)
        self.shard = shard
    }

    /// Runs over `folders` (and single files given directly). Cancel the iterating task to stop:
    /// running decodes are cancelled, nothing partial is written.
    public func run(_ roots: [String]) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        let task = Task {
            // The walk runs on a thread of its own: a share that stops answering leaves that
            // thread stuck, not one of the cooperative threads, and cancelling still returns.
            let (cacheRoot, shard) = (cache.root, shard)
            let (files, unlisted) = (try? await VolumeIO.engineCall { token -> ([String], [(folder: String, reason: String)]) in
                var files: [String] = []
                var unlisted: [(folder: String, reason: String)] = []
                for root in roots where !token.isCancelled {
                    unlisted += FolderWalker.walk(root, skipping: cacheRoot, isCancelled: { token.isCancelled }) { path, relative in
                        if let shard, !shard.owns(relativePath: relative) { return }
                        files.append(path)
                    }
                }
                return (files, unlisted)
            }) ?? ([], [])
            if !unlisted.isEmpty { continuation.yield(.unlisted(unlisted)) }
            continuation.yield(.found(total: files.count))
            // Files answered without decoding (cached, empty, of no type made here: on a re-run,
            // nearly all) are looked at in chunks, one engine thread per chunk rather than per
            // file; each file is answered, or goes on to be made, as soon as it is looked at.
            let (toMake, making) = AsyncStream<String>.makeStream()
            await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    // As many chunks at once as files are made at once (a thread each).
                    await withTaskGroup(of: Void.self) { chunks in
                        var starts = stride(from: 0, to: files.count, by: Self.chunk).makeIterator()
                        func lookAt(_ start: Int) {
                            let paths = Array(files[start..<min(start + Self.chunk, files.count)])
                            chunks.addTask {
                                _ = try? await VolumeIO.engineCall { token in
                                    var answered = AnsweredFiles(continuation)
                                    for path in paths where !token.isCancelled {
                                        if let outcome = answerWithoutDecoding(path) { answered.add(path, outcome) } else { making.yield(path) }
                                        answered.flushIfDue()
                                    }
                                    answered.flush()
                                }
                            }
                        }
                        for _ in 0..<jobs { if let start = starts.next() { lookAt(start) } }
                        for await _ in chunks where !Task.isCancelled { if let start = starts.next() { lookAt(start) } }
                    }
                    making.finish()
                    return false
                }
                var waiting = toMake.makeAsyncIterator()
                var inFlight = 0
                // Twice as many files in flight as workers, so no worker waits while a result is stored.
                while inFlight < jobs * 2, !Task.isCancelled, let path = await waiting.next() {
                    group.addTask { continuation.yield(.file(path: path, outcome: await make(path))); return true }
                    inFlight += 1
                }
                while let wasFile = await group.next() {
                    guard wasFile, !Task.isCancelled, let path = await waiting.next() else { continue }
                    group.addTask { continuation.yield(.file(path: path, outcome: await make(path))); return true }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Files looked at per engine call.
    static let chunk = 256

    /// The files a chunk answered without decoding, passed on a few at a time: one event at a time
    /// woke the batch's reader for each file (a re-run of 10,000 cached files spent a sixth of its
    /// time switching threads). What waits is passed on within `delay`, so a slow share's
    /// progress still moves.
    private struct AnsweredFiles {
        static let delay: Int64 = 20_000_000
        let continuation: AsyncStream<Event>.Continuation
        var waiting: [(path: String, outcome: Outcome)] = []
        var since = SystemTime.now()

        init(_ continuation: AsyncStream<Event>.Continuation) { self.continuation = continuation }

        mutating func add(_ path: String, _ outcome: Outcome) {
            if waiting.isEmpty { since = SystemTime.now() }
            waiting.append((path, outcome))
        }

        /// Passes on what waits once the first of it has waited `delay`, whatever the files
        /// looked at since (those going on to be made too: on a slow share each look is slow).
        mutating func flushIfDue() {
            if !waiting.isEmpty && SystemTime.now() - since >= Self.delay { flush() }
        }

        mutating func flush() {
            for (path, outcome) in waiting { continuation.yield(.file(path: path, outcome: outcome)) }
            waiting.removeAll(keepingCapacity: true)
        }
    }

    /// The outcome of a file that needs no decoding, or nil (blocking: on an engine thread).
    private func answerWithoutDecoding(_ path: String) -> Outcome? {
        let type = ContentTypeTable.type(forFileName: path) ?? .unknown
        switch type.kind {
        case .folder, .archive: return .skipped("no thumbnailer for \(type.identifier)")
        case .unknown where ContentTypeTable.type(forFileName: path) != nil: return .skipped("no thumbnailer for \(type.identifier)")
        default: break
        }
        var info = stat()
        let stated = stat(path, &info) == 0
        if stated && info.st_size == 0 { return .skipped("the file is empty") }
        guard cache.hasValidThumbnail(forFile: path, box: box, stamp: stated ? FileStamp(info) : nil) else { return nil }
        // `--shared` fills the repository beside the file whatever the personal cache
        // holds: a stored thumbnail is copied there, a missing one is made (and published).
        return cache.publishShared(forFile: path, box: box) ? .alreadyCached : nil
    }

    /// Makes the thumbnail of a file `answerWithoutDecoding` left.
    private func make(_ path: String) async -> Outcome {
        await Self.make(path, box: box, generator: generator)
    }

    /// Makes the thumbnail of `path` into the generator's cache, as a batch counts it: a picture
    /// the cache did not keep is a failure (the next run would make it again). Also what an SFTP
    /// place's batch does with each file's local copy.
    public static func make(_ path: String, box: PixelSize, generator: ThumbnailGenerator) async -> Outcome {
        var request = ThumbnailRequest(path: path, size: Double(box.width), types: [.thumbnail])
        request.wantsFacts = false
        do {
            let made = try await generator.bestRepresentation(for: request)
            if let notStored = made.notStored { return .failed(ThumbnailError(.writeFailed, "made, but not stored in the cache: \(notStored.reason)")) }
            return .generated(made)
        } catch let error as ThumbnailError {
            return .failed(error)
        } catch {
            return .failed(ThumbnailError(.cancelled, "cancelled"))
        }
    }
}

/// Recursive folder listing for batch runs: regular files only, symbolic links to folders not
/// followed (no loops), the thumbnail cache and `.sh_thumbnails` repositories skipped.
enum FolderWalker {
    static let skippedFolders: Set<String> = [".sh_thumbnails", ".thumbnails", ".git", ".Trash", ".Trash-0"]

    /// Calls `visit` with each file (path, path relative to `root`); returns the folders that
    /// could not be listed, with the reason.
    @discardableResult
    static func walk(_ root: String, skipping cacheRoot: String, isCancelled: () -> Bool = { Task.isCancelled },
                     _ visit: (String, String) -> Void) -> [(folder: String, reason: String)] {
        var status = stat()
        // A root that is not there is named like a folder that cannot be listed, never passed over.
        guard stat(root, &status) == 0 else { return [(root, reason(errno))] }
        if (status.st_mode & S_IFMT) == S_IFREG {
            visit(root, root.split(separator: "/").last.map(String.init) ?? root)
            return []
        }
        var unlisted: [(folder: String, reason: String)] = []
        var pending = [(root, "")]
        let cache = PathNormalizer.absolute(cacheRoot)
        while let (folder, relative) = pending.popLast() {
            if isCancelled() { return unlisted }
            guard PathNormalizer.absolute(folder) != cache else { continue }
            guard let directory = opendir(folder) else {
                unlisted.append((folder, reason(errno)))
                continue
            }
            var names: [(String, UInt8)] = []
            errno = 0
            while let entry = readdir(directory) {
                let name = entry.pointee.name
                if name != "." && name != ".." { names.append((name, entry.pointee.d_type)) }
                errno = 0
            }
            // A listing that broke off (the volume went away) counts as not listed; what it gave is still walked.
            if errno != 0 { unlisted.append((folder, reason(errno))) }
            closedir(directory)
            // Sorted on keys made once per name (a comparison that lowercases both names would make
            // a 10,000-file folder's sort cost as much as looking up all its thumbnails).
            let sorted = names.map { (key: NaturalOrder.key($0.0), entry: $0) }.sorted {
                let order = NaturalOrder.compareKeys($0.key, $1.key)
                return order != 0 ? order < 0 : $0.entry.0 < $1.entry.0
            }
            for (name, kind) in sorted.map(\.entry) {
                let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                let child = relative.isEmpty ? name : relative + "/" + name
                var type = kind
                if type == UInt8(DT_UNKNOWN) {
                    var info = stat()
                    guard lstat(path, &info) == 0 else {
                        unlisted.append((path, reason(errno)))
                        continue
                    }
                    type = (info.st_mode & S_IFMT) == S_IFDIR ? UInt8(DT_DIR) : (info.st_mode & S_IFMT) == S_IFREG ? UInt8(DT_REG) : UInt8(DT_LNK)
                }
                if type == UInt8(DT_DIR) {
                    if !skippedFolders.contains(name) { pending.append((path, child)) }
                } else if type == UInt8(DT_REG) {
                    visit(path, child)
                } else if type == UInt8(DT_LNK) {
                    var info = stat()
                    if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { visit(path, child) }
                }
            }
        }
        return unlisted
    }

    /// Why a folder could not be listed, in words: a path longer than the system takes is said plainly.
    static func reason(_ code: Int32) -> String {
        code == ENAMETOOLONG ? "skipped: its path is longer than the system allows (\(PATH_MAX) bytes)" : String(cString: strerror(code))
    }
}
