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
        guard !recursive, !noCache, !force, !progressive, type == .all || type == .thumbnail else { return false }
        guard UserConfig.load().problems.isEmpty else { return false }
        // The files, the output folder and the cache (a home folder may be on a server) are all
        // on local disks, or the threads that guard against a hung volume are needed.
        let cache = ThumbnailCache(writesShared: shared, ignoresStored: force)
        let mounts = LocalDiskPath.currentMounts()
        guard ([output, cache.root] + files).allSatisfy({ LocalDiskPath.cannotHang($0, mounts: mounts) }) else { return false }
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
}
