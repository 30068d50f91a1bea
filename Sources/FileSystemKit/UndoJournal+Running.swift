import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The parts of an undo, each through `UndoFiles` (so on a remote as here): the check that every
/// file is as the step left it, then the one call per part, which returns what takes it back.
extension UndoJournal {
    /// Why `action` cannot be done now, or nil; a place that cannot say (not connected, not
    /// answering) is the reason.
    static func problem(_ action: UndoAction, files: any UndoFiles) -> String? {
        do throws(FileSystemError) {
            switch action {
            case .rename(let from, let to, let expected), .move(let from, let to, let expected):
                if let problem = PathStamp.problem(from, now: try files.stamp(from), expected: expected) { return problem }
                return try files.stamp(to) == nil ? nil : "\(FileOperation.escapedName(to)) is taken by another file"
            case .discard(let path, let expected):
                return PathStamp.problem(path, now: try files.stamp(path), expected: expected)
            case .restore(let item):
                if try files.stamp(item.trashedPath) == nil { return "\(FileOperation.escapedName(item.originalPath)) is no longer in the Trash" }
                return try files.stamp(item.originalPath) == nil ? nil : "\(FileOperation.escapedName(item.originalPath)) is taken by another file"
            case .renames(let renames):
                let sources = Set(renames.map(\.from))
                for rename in renames {
                    if let problem = PathStamp.problem(rename.from, now: try files.stamp(rename.from), expected: rename.expected) { return problem }
                    if !sources.contains(rename.to), try files.stamp(rename.to) != nil { return "\(FileOperation.escapedName(rename.to)) is taken by another file" }
                }
                return nil
            }
        } catch {
            return error.message
        }
    }

    /// Does `action`; what undoes it, or why it failed (nothing of it done).
    static func run(_ action: UndoAction, files: any UndoFiles, moved: (String, String) -> Void, removed: (String) -> Void) -> Result<UndoAction, UndoRefusal> {
        do throws(FileSystemError) {
            switch action {
            case .rename(let from, let to, _):
                try files.rename(from, to: to)
                moved(from, to)
                return .success(.rename(from: to, to: from, expected: try stamp(to, files)))
            case .move(let from, let to, _):
                try files.move(from, to: to, moved: moved, removed: removed)
                return .success(.move(from: to, to: from, expected: try stamp(to, files)))
            case .discard(let path, _):
                let item = try files.trash(path)
                removed(path)
                return .success(.restore(item))
            case .restore(let item):
                let back = try files.restore(item)
                return .success(.discard(back, expected: try stamp(back, files)))
            case .renames(let renames):
                return try renameTogether(renames, files: files, moved: moved).map { .renames($0) }
            }
        } catch {
            return .failure(UndoRefusal(error.message))
        }
    }

    /// The stamp of what was just put at `path`.
    private static func stamp(_ path: String, _ files: any UndoFiles) throws(FileSystemError) -> PathStamp {
        guard let stamp = try files.stamp(path) else { throw FileSystemError(code: .notFound, path: path, context: "\(FileOperation.escapedName(path)) is gone") }
        return stamp
    }

    /// Renames in two passes through hidden temporary names, so that swaps and cycles (a→b, b→a)
    /// work; on a failure every name goes back.
    private static func renameTogether(_ renames: [UndoAction.Rename], files: any UndoFiles,
                                       moved: (String, String) -> Void) throws(FileSystemError) -> Result<[UndoAction.Rename], UndoRefusal> {
        var parked: [(rename: UndoAction.Rename, temporary: String)] = []
        var placed: [(rename: UndoAction.Rename, temporary: String)] = []
        func rollBack() {
            for (rename, temporary) in placed.reversed() { try? files.rename(rename.to, to: temporary) }
            for (rename, temporary) in parked.reversed() { try? files.rename(temporary, to: rename.from) }
        }
        for (index, rename) in renames.enumerated() {
            let folder = String(rename.from[..<rename.from.lastIndex(of: "/")!])
            let temporary = folder + "/.qlbrowse-rename-\(getpid())-\(index)"
            do throws(FileSystemError) { try files.rename(rename.from, to: temporary) } catch {
                rollBack()
                return .failure(UndoRefusal("\(FileOperation.escapedName(rename.from)): \(error.message); every name is as it was"))
            }
            parked.append((rename, temporary))
        }
        for entry in parked {
            do throws(FileSystemError) { try files.rename(entry.temporary, to: entry.rename.to) } catch {
                rollBack()
                return .failure(UndoRefusal("\(FileOperation.escapedName(entry.rename.to)): \(error.message); every name is as it was"))
            }
            placed.append(entry)
        }
        for rename in renames { moved(rename.from, rename.to) }
        var inverse: [UndoAction.Rename] = []
        for rename in renames { inverse.append(UndoAction.Rename(from: rename.to, to: rename.from, expected: try stamp(rename.to, files))) }
        return .success(inverse)
    }
}
