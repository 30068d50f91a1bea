import Dispatch
import FileSystemKit
import SystemKit

extension LocalPlace {
    /// Why a search inside files could not run: ripgrep is not installed where the files are.
    public static let needsRipgrep = "looking inside files needs ripgrep (Debian package ripgrep)"

    /// Tab in `F` on this computer (and, for the other side, in a remote's `qlbrowse serve`):
    /// ripgrep lists the files below `folder` that hold `query` (`rg -l`, smart case, the query
    /// as it is, ripgrep's own rules for hidden and ignored files), on a thread of its own. The
    /// first `limit` paths, relative to `folder` and as their bytes, and how many in all are
    /// reported at most every 50 ms and once more when ripgrep ends (`complete`). Cancelling
    /// kills ripgrep within 100 ms (it is asked between lines too, so a long quiet search stops
    /// all the same). Without ripgrep: a failure saying so; no slower search of our own instead.
    public func findInside(_ folder: String, query: String, limit: Int,
                           report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceTask {
        let task = PlaceTask()
        DispatchQueue.global(qos: .userInitiated).async {
            let found = Found(folder: folder, limit: limit)
            let post = { (complete: Bool) in
                report(.success(FileFinder.Report(query: query, best: found.paths, matched: found.count, walked: 0, complete: complete, unreadable: 0)))
            }
            // Asked between lines and at every quiet 100 ms: what came since the last report
            // goes out within that (a match then hours of files without one is not held back).
            let started = ProcessOutput.lines(Self.ripgrep(query, in: folder), isCancelled: {
                if found.reportIsDue() { post(false) }
                return task.isCancelled
            }) { line in
                guard !task.isCancelled else { return false }
                found.add(line)
                if found.reportIsDue() { post(false) }
                return true
            }
            guard !task.isCancelled else { return }
            if started {
                post(true)
            } else {
                report(.failure(FileSystemError(code: .unsupported, path: folder, context: Self.needsRipgrep)))
            }
        }
        return task
    }

    /// What one ripgrep listed so far (its thread's own), and whether a report is due: something
    /// new, and 50 ms since the last (the first at once).
    private final class Found {
        let prefix: String
        let limit: Int
        var paths: [String] = []
        var count = 0
        private var isNew = false
        private var lastReport: Int64 = 0

        init(folder: String, limit: Int) {
            prefix = folder == "/" ? "/" : folder + "/"
            self.limit = limit
        }

        func add(_ line: String) {
            count += 1
            isNew = true
            if paths.count < limit { paths.append(line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line) }
        }

        /// True once for each report due (the caller reports).
        func reportIsDue() -> Bool {
            guard isNew, SystemTime.now() - lastReport > 50_000_000 else { return false }
            isNew = false
            lastReport = SystemTime.now()
            return true
        }
    }

    /// ripgrep's command line: the files holding `query` below `folder`, nothing else said, each
    /// path written as it is found (into a pipe ripgrep would otherwise hold them all until the
    /// end of a long search).
    static func ripgrep(_ query: String, in folder: String) -> [String] {
        ["rg", "--files-with-matches", "--smart-case", "--fixed-strings", "--no-messages", "--line-buffered", "--", query, folder]
    }
}
