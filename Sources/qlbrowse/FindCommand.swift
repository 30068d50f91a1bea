import ArgumentParser
import Dispatch
import FileSystemKit
import Places
import ThumbnailKit
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse find`: the browser's `F` for scripts: names below a folder matched as fzf does (the
/// query's letters in order, smart case), on the folder's volume only (other volumes' mount points
/// are not entered, so a hung share below cannot stop it). A remote folder (`ssh://host/path`,
/// `host:path`) is walked by the remote's own qlbrowse, and only the matches cross.
struct FindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find names below a folder, fuzzily, best first (or all as they are found).",
        discussion: """
        The query's letters must appear in order in the path ("hol23" finds holiday/2023/beach.jpg); \
        case matters only when the query has a capital. Hidden files and other volumes are left out.
        """)

    @Argument(help: "What to look for.") var query: String
    @Argument(help: "Where to look (this folder when not given; ssh://[user@]host[:port]/path or host:path for a remote one).")
    var folder: String?
    @Option(parsing: .unconditional, help: "How many of the best matches to print.") var best = 50
    @Flag(help: "Print every match as it is found, in the order the walk finds them, instead of the best.") var all = false
    @Flag(help: "Look in hidden files and folders too.") var hidden = false

    func validate() throws {
        guard best >= 1 else { throw ValidationError("--best takes a number of matches, 1 or more") }
    }

    func run() throws {
        let finished = DispatchSemaphore(value: 0)
        let last = Mutex<FileFinder.Report?>(nil)
        let all = self.all
        // Names go out as they are to a pipe; on a terminal, control characters are shown, not obeyed.
        let toTerminal = isatty(1) == 1
        let shown: @Sendable (String) -> String = { toTerminal ? TerminalText.escaped($0) : $0 }
        let onReport: @Sendable (FileFinder.Report) -> Void = { report in
            if all, !report.fresh.isEmpty {
                FileDescriptorWriter.writeAll((report.fresh.map { shown($0) + "\n" }.joined()).fileSystemBytes, to: 1)
            }
            last.withLock { $0 = report }
            if report.complete { finished.signal() }
        }
        // `ssh://host/path` or `host:path`: the remote's own qlbrowse walks and ranks there.
        if let remote = try RemoteFind.open(folder) {
            try remote.find(query, showsHidden: hidden, best: max(1, best), streams: all, report: onReport, finished: finished)
        } else {
            try findHere(report: onReport, finished: finished)
        }
        guard let report = last.withLock({ $0 }) else { return }
        if !all {
            FileDescriptorWriter.writeAll((report.best.map { shown($0) + "\n" }.joined()).fileSystemBytes, to: 1)
        }
        if report.unreadable > 0 {
            FileDescriptorWriter.writeAll(Array("qlbrowse find: \(report.unreadable) folder\(report.unreadable == 1 ? "" : "s") could not be read\n".utf8), to: 2)
        }
        if report.matched == 0 { throw ExitCode(1) }
    }

    /// The walk on this computer, until its complete report.
    private func findHere(report: @escaping @Sendable (FileFinder.Report) -> Void, finished: DispatchSemaphore) throws {
        let root = PathNormalizer.absolute(folder ?? ".")
        let place = LocalPlace()
        let item: PlaceItem
        do throws(FileSystemError) {
            item = try PlaceCall.wait { () throws(FileSystemError) in try await place.item(at: root) }
        } catch {
            throw RuntimeError("cannot look in \(TerminalText.escaped(root)): \(String(cString: strerror(error.errno)))")
        }
        guard item.isDirectory else { throw RuntimeError("\(TerminalText.escaped(root)) is not a folder") }
        let finder = FileFinder(root: root, showsHidden: hidden, skipping: VolumeMonitor.currentVolumes().map(\.mountPoint),
                                best: max(1, best), streams: all, report: report)
        finder.search(query)
        finder.start()
        finished.wait()
    }
}
