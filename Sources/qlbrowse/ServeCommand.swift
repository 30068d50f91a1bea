import ArgumentParser
import FileSystemKit
import Places
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse serve --stdio`: the remote side of a remote place (`RemotePlace`), started by the
/// browser through the user's own `ssh`. Speaks the remote protocol (`RemoteCodec`) on standard
/// input and output and serves this machine's files: listings, ranged reads, writes, renames,
/// the trash, file operations, `T`'s batches, Quick Look's previews and text, and thumbnails made
/// and cached here, where the files are.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve this machine's files to a qlbrowse elsewhere (run by it through ssh).",
        discussion: """
            qlbrowse ssh://host/path and qlbrowse host:path run `qlbrowse serve --stdio` on the host through \
            ssh: requests come on standard input, answers go to standard output (protocol version \
            \(RemoteCodec.version)). Thumbnails are made by this machine's workers and kept in its cache.
            """)

    @Flag(help: "Speak the protocol on standard input and output (the only transport).")
    var stdio = false

    func validate() throws {
        guard stdio else { throw ValidationError("serve needs --stdio (the only transport)") }
    }

    func run() throws {
        RemoteTrace.note("remote", "serve started")
        signal(SIGPIPE, SIG_IGN)
        // The answers get a descriptor of their own; whatever else writes on standard output
        // (a library's chatter) goes to standard error instead of into the frames.
        let answers = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard answers >= 0 else { throw RuntimeError("cannot use standard output: \(String(cString: strerror(errno)))") }
        dup2(2, 1)
        let cache = ThumbnailCache()
        let pool = WorkerPool(size: min(WorkerPool.coreCount, 4), stderrPath: ProcessEnvironment.workerLog)
        // The workers start while the browser says hello and lists the folder (two round trips
        // and more), not when the first grid's thumbnails are asked.
        Task { await pool.warmUp() }
        // Quick Look's previews come from workers of their own, as in the browser: a long page
        // render never holds up the thumbnails of the grid.
        let previews = WorkerPool(size: 2, stderrPath: ProcessEnvironment.workerLog)
        let place = LocalPlace(thumbnails: ThumbnailGenerator(pool: pool, cache: cache), previews: PreviewGenerator(pool: previews))
        let server = RemoteServer(place: place, previews: previews, cache: cache, input: 0, output: answers,
                                  software: "qlbrowse \(BuildInfo.versionLine)")
        switch server.run() {
        case .closed: return
        case .otherVersion(let theirs):
            throw RuntimeError("the other qlbrowse speaks protocol version \(theirs), this one \(RemoteCodec.version)")
        case .broken(let why):
            throw RuntimeError(why)
        }
    }
}
