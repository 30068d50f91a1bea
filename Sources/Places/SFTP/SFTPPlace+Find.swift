import FileSystemKit
import Synchronization
import SystemKit

extension SFTPPlace {
    /// How many names an SFTP search walks at most: past it the walk ends (complete, as far as
    /// it went), so that `F` on a huge tree over a slow link costs a bounded number of round trips.
    public static let findWalkLimit = 200_000
    /// How many folders are read at once (each read is a few round trips over the link).
    static let findFoldersAtOnce = 8

    /// `F` over plain SFTP: no walker on the remote, so this side walks it, a few folders at a
    /// time (OPENDIR, READDIR until the end, each call with the listing deadline), without
    /// following links, up to `findWalkLimit` names (the remote's mount table is not known over
    /// SFTP: its other volumes are walked too); the names are ranked here by a `FileFinder` fed
    /// with them. Cancelling stops the walk (its calls in flight are given up) and every report.
    /// A folder that cannot be read is counted `unreadable`; a link lost or silent past the
    /// deadline ends the search with the failure.
    public func find(under folder: String, showsHidden: Bool, skipping mountPoints: [String]?,
                     report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceFind {
        find(under: folder, showsHidden: showsHidden, best: 200, streams: false, report: report)
    }

    /// The same with `qlbrowse find`'s `best` count and `streams` (`Report.fresh`).
    public func find(under folder: String, showsHidden: Bool, best: Int, streams: Bool,
                     report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceFind {
        let link = SFTPFindLink()
        let finder = FileFinder(root: folder, showsHidden: showsHidden, skipping: [], best: best, streams: streams) { found in
            if !link.ended.load(ordering: .acquiring) { report(.success(found)) }
        }
        return PlaceFind(start: { [self] in
            let task = Task { [self] in
                do throws(FileSystemError) {
                    try await walk(folder, showsHidden: showsHidden, into: finder)
                } catch {
                    guard !Task.isCancelled else { return }
                    link.ended.store(true, ordering: .releasing)
                    finder.stop()
                    report(.failure(error))
                }
            }
            link.walker.withLock { $0 = task }
        }, search: { finder.search($0) }, onCancel: {
            // Before the finder stops: a report its thread was about to make is not made (CI saw
            // one arrive after the cancel).
            link.ended.store(true, ordering: .releasing)
            finder.stop()
            link.walker.withLock { $0 }?.cancel()
        })
    }

    /// Reads the folders below `root` a few at a time and hands their names to `finder`.
    private func walk(_ root: String, showsHidden: Bool, into finder: FileFinder) async throws(FileSystemError) {
        var pending: [(path: String, relative: [UInt8])] = [(root, [])]
        var walked = 0
        while !pending.isEmpty, walked < Self.findWalkLimit {
            let wave = Array(pending.suffix(Self.findFoldersAtOnce))
            pending.removeLast(wave.count)
            let read = await withTaskGroup(of: (Int, Result<[SFTPName], FileSystemError>).self) { group in
                for (index, folder) in wave.enumerated() {
                    group.addTask { [self] in (index, await names(in: folder.path)) }
                }
                var read: [Int: Result<[SFTPName], FileSystemError>] = [:]
                for await (index, result) in group { read[index] = result }
                return read
            }
            if Task.isCancelled { return }
            var folders: [(folder: [UInt8], names: [[UInt8]])] = [], unreadable = 0
            for (index, folder) in wave.enumerated() {
                switch read[index] ?? .success([]) {
                case .failure(let error) where error.code == .volumeGone || error.code == .notResponding:
                    throw error
                case .failure:
                    unreadable += 1
                case .success(let entries):
                    let kept = entries.filter { entry in
                        let name = entry.name
                        return !name.isEmpty && name != [0x2E] && name != [0x2E, 0x2E] && (showsHidden || name.first != 0x2E)
                            && !name.contains(0x2F) && !name.contains(0)
                    }.prefix(Self.findWalkLimit - walked)
                    walked += kept.count
                    folders.append((folder.relative, kept.map(\.name)))
                    let prefix = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
                    for entry in kept where entry.attributes.isDirectory {
                        pending.append((prefix + String(fileSystemBytes: entry.name), folder.relative + (folder.relative.isEmpty ? [] : [0x2F]) + entry.name))
                    }
                }
            }
            let done = pending.isEmpty || walked >= Self.findWalkLimit
            finder.add(folders, unreadable: unreadable, complete: done)
            if done { return }
        }
    }

    /// The entries of one folder as READDIR gives them (links not followed), or why not.
    private func names(in folder: String) async -> Result<[SFTPName], FileSystemError> {
        do throws(FileSystemError) {
            guard case .handle(_, let handle) = try await call(.openDirectory(path: folder.fileSystemBytes), path: folder, deadline: listingDeadline)
            else { throw unexpected(folder) }
            defer { closeHandle(handle) }
            var entries: [SFTPName] = []
            while !Task.isCancelled {
                let reply = try await call(.readDirectory(handle: handle), path: folder, deadline: listingDeadline, allowsEndOfFile: true)
                guard case .names(_, let names) = reply else { break }
                entries += names
            }
            return .success(entries)
        } catch {
            return .failure(error)
        }
    }

    /// Refused: looking inside files over SFTP alone would read every file across the link;
    /// qlbrowse on the remote runs ripgrep there instead.
    public func findInside(_ folder: String, query: String, limit: Int,
                           report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceTask {
        report(.failure(FileSystemError(code: .unsupported, path: folder,
                                        context: "looking inside files needs qlbrowse on the remote: over SFTP alone every file would cross the link")))
        return PlaceTask()
    }
}

/// One SFTP search's walk, to cancel, and whether it ended (failed or was cancelled: then the
/// finder says nothing more).
private final class SFTPFindLink: Sendable {
    let walker = Mutex<Task<Void, Never>?>(nil)
    let ended = Atomic<Bool>(false)
}
