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
            var found: [String] = [], count = 0, lastPost = SystemTime.now()
            let prefix = folder == "/" ? "/" : folder + "/"
            let post = { (complete: Bool) in
                report(.success(FileFinder.Report(query: query, best: found, matched: count, walked: 0, complete: complete, unreadable: 0)))
            }
            let started = ProcessOutput.lines(Self.ripgrep(query, in: folder), isCancelled: { task.isCancelled }) { line in
                guard !task.isCancelled else { return false }
                count += 1
                if found.count < limit { found.append(line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line) }
                if SystemTime.now() - lastPost > 50_000_000 {
                    post(false)
                    lastPost = SystemTime.now()
                }
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

    /// ripgrep's command line: the files holding `query` below `folder`, nothing else said.
    static func ripgrep(_ query: String, in folder: String) -> [String] {
        ["rg", "--files-with-matches", "--smart-case", "--fixed-strings", "--no-messages", "--", query, folder]
    }
}
