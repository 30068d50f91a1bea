import FileSystemKit
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

extension ThumbnailCall {
    /// Answers the whole call from the cache on the calling thread, before any task, thread,
    /// worker or service is started, when every file's thumbnail is stored and every path lies on
    /// a local disk (`LocalDiskPath`): a script's or a file manager's repeated call for files
    /// already seen then costs little more than the process's start (issue #27: starting the
    /// concurrency runtime and the threads that guard against a hung volume was a third of such a
    /// call). False, with nothing written or printed, when anything more is needed: `run()` then
    /// does it all, errors and messages included.
    func answeredFromCache() -> Bool {
        guard !recursive, !noCache, !force, !progressive, type == .all || type == .thumbnail,
              files.count <= Self.mostFilesAnsweredAtOnce else { return false }
        guard UserConfig.load().problems.isEmpty else { return false }
        let cache = ThumbnailCache(writesShared: shared, ignoresStored: force)
        guard Self.mayReadWhereItStands(files: files, output: output, cache: cache) else { return false }
        var folder = stat()
        guard stat(output, &folder) == 0, (folder.st_mode & S_IFMT) == S_IFDIR, access(output, W_OK) == 0 else { return false }

        let clock = ContinuousClock()
        var answers: [(representation: Representation, elapsed: Duration)] = []
        for file in files {
            let start = clock.now
            guard let cached = ThumbnailGenerator.cachedThumbnail(for: request(for: file), in: cache) else { return false }
            answers.append((cached, clock.now - start))
        }
        signal(SIGPIPE, SIG_IGN)
        let names = OutputNames(folder: output, format: format.imageFormat)
        let reporter = ThumbnailReporter(json: json)
        var failed = false
        for (file, answer) in zip(files, answers) {
            let path = names.path(for: file)
            do {
                try write(answer.representation, to: path)
                reporter.reportAtOnce(file: file, representation: answer.representation, elapsed: answer.elapsed, output: path)
            } catch {
                let failure = error as? ThumbnailError ?? ThumbnailError(.corrupt, String(describing: error))
                reporter.failAtOnce(file: file, error: failure.retryHint("--force retries"))
                failed = true
            }
        }
        if failed { Glibc.exit(1) }
        return true
    }

    /// At most this many files are answered here, all looked up before the first is written (the
    /// promise to write nothing otherwise): a call for many more is a batch, whose start the full
    /// run's parallel workers and streamed lines are worth (a review saw 305 MB for 60 cached
    /// 1000-pixel JPEGs held at once, 143 MB the full way).
    static let mostFilesAnsweredAtOnce = 16

    /// Whether everything the call reads or writes is on local disks (`LocalDiskPath`), so that
    /// nothing can hang: the files and their folders (the `.sh_thumbnails` beside them, with no
    /// share mounted inside), the output folder, and the cache with each folder it reads (a link
    /// there to a share would lead the look-up onto it).
    static func mayReadWhereItStands(files: [String], output: String, cache: ThumbnailCache) -> Bool {
        let mounts = LocalDiskPath.currentMounts()
        guard LocalDiskPath.cannotHang(output, mounts: mounts), LocalDiskPath.cannotHang(cache.root, mounts: mounts, beneath: true),
              files.allSatisfy({ LocalDiskPath.cannotHang($0, mounts: mounts) && LocalDiskPath.cannotHang(folder(of: $0), mounts: mounts, beneath: true) })
        else { return false }
        // The cache's own folders: real folders, or absent (a look-up there finds nothing at once).
        let folders = ThumbnailCache.Flavor.allCases.map(\.rawValue) + ["fail", "fail/qlbrowse-\(EngineVersion.string)"]
        return folders.allSatisfy { name in
            var status = stat()
            guard lstat(cache.root + "/" + name, &status) == 0 else { return errno == ENOENT }
            return (status.st_mode & S_IFMT) == S_IFDIR
        }
    }

    /// The folder `path` is in ("." for a bare name).
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
