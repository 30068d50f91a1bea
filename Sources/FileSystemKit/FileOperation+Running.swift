import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

extension FileOperation {
    /// Carries the operation out. `resolve` is asked (and may block for the user) when a name is
    /// taken; `progress` hears about every chunk; `moved`/`removed` let thumbnails follow.
    public func run(trash: TrashCan?, resolve: (Conflict) -> (ConflictChoice, applyToAll: Bool),
                    progress: @escaping @Sendable (Progress) -> Void,
                    moved: (String, String) -> Void = { _, _ in }, removed: (String) -> Void = { _ in }) -> Report {
        var report = Report()
        let tree = kind == .trash ? [] : checkedTree.withLock { $0 } ?? sources.flatMap { Self.walk($0) }
        let state = ProgressBox(Progress(bytesTotal: tree.reduce(0) { $0 + $1.size }, itemsTotal: sources.count))
        var remembered: ConflictChoice?
        if kind == .copy || kind == .move, let destination {
            report.removedLeftovers = FileCopier.removeLeftovers(in: destination).map { destination + "/" + $0 }
        }
        for (index, source) in sources.enumerated() {
            if isCancelled {
                report.cancelled = true
                report.notDone += sources[index...]
                break
            }
            state.withLock { $0.current = Self.name(source) }
            progress(state.withLock { $0 })
            let outcome = runItem(source, trash: trash, report: &report, progressState: state, progress: progress, moved: moved, removed: removed) { conflict in
                if let remembered { return remembered }
                let (choice, all) = resolve(conflict)
                if all { remembered = choice }
                return choice
            }
            switch outcome {
            case .done: report.done.append(source)
            case .skipped: report.skipped.append(source)
            case .failed(let message, let stopAll):
                report.notDone.append(source)
                report.failures.append(message)
                if stopAll {
                    report.notDone += sources[(index + 1)...]
                    return report
                }
            case .cancelled:
                report.cancelled = true
                report.notDone += sources[index...]
                return report
            }
            state.withLock { $0.itemsDone += 1 }
            progress(state.withLock { $0 })
        }
        return report
    }

    /// The running totals, shared with the copier's progress callback.
    final class ProgressBox: Sendable {
        private let state: Mutex<Progress>
        init(_ progress: Progress) { state = Mutex(progress) }
        func withLock<R>(_ body: (inout Progress) -> R) -> R { state.withLock { body(&$0) } }
    }

    enum ItemOutcome {
        case done, skipped, cancelled
        /// `stopAll`: the destination or the source volume is gone, or the disk is full.
        case failed(String, stopAll: Bool)
    }

    private func runItem(_ source: String, trash: TrashCan?, report: inout Report, progressState: ProgressBox,
                         progress: @escaping @Sendable (Progress) -> Void, moved: (String, String) -> Void, removed: (String) -> Void,
                         choose: (Conflict) -> ConflictChoice) -> ItemOutcome {
        switch kind {
        case .trash:
            guard let trash else { return .failed("no trash available", stopAll: true) }
            do {
                report.trashed.append(try trash.trash(source))
                removed(source)
                return .done
            } catch {
                return .failed(error.message, stopAll: false)
            }
        case .delete:
            if let problem = Self.removeTree(source) { return .failed(problem, stopAll: false) }
            removed(source)
            return .done
        case .copy, .move:
            guard let destination else { return .failed("no destination", stopAll: true) }
            var target = destination + "/" + Self.name(source)
            var info = stat()
            lstat(source, &info)
            let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
            var replace = false
            var existing = stat()
            if lstat(target, &existing) == 0 {
                if target == source {
                    // Pasting where it already is: a copy gets a new name, a move has nothing to do.
                    guard kind == .copy else { return .skipped }
                    target = ConflictNames.free(target, isFolder: isFolder)
                } else {
                    switch choose(Conflict(source: source, destination: target, destinationIsFolder: (existing.st_mode & S_IFMT) == S_IFDIR)) {
                    case .skip: return .skipped
                    case .keepBoth: target = ConflictNames.free(target, isFolder: isFolder)
                    case .overwrite: replace = true
                    }
                }
            }
            if kind == .move && Self.device(of: source) == Self.device(of: destination) {
                // Same volume: one rename, atomic. A folder over a non-empty folder merges below instead.
                do throws(FileSystemError) {
                    if replace {
                        _ = try SystemCall.run("rename", path: target) { rename(source, target) }
                    } else {
                        try FileRename.noReplace(source, to: target)
                    }
                    progressState.withLock { $0.bytesDone += Self.walk(target).reduce(0) { $0 + $1.size } }
                    moved(source, target)
                    report.placed.append(Placement(source: source, target: target, sameVolume: true))
                    return .done
                } catch {
                    // Across volumes, onto a folder that merges, or where RENAME_NOREPLACE is missing: copy below.
                    if ![EXDEV, ENOTEMPTY, EEXIST, EINVAL].contains(error.errno) {
                        return .failed(FileSystemError.system(error.errno, "cannot move \(source)").message, stopAll: false)
                    }
                }
            }
            var created: [String] = []
            let control = FileCopier.Control(isCancelled: { [self] in isCancelled }, waitWhilePaused: { [self] in
                while isPaused && !isCancelled { usleep(50_000) }
            }, progress: { bytes in
                progress(progressState.withLock { $0.bytesDone += bytes; return $0 })
            })
            if let failure = copyTree(source, to: target, replace: replace, durable: kind == .move, control: control, created: &created, report: &report) {
                // All or nothing: what this item made at the destination goes again.
                for path in created.reversed() where Self.removeTree(path) != nil { report.leftovers.append(path) }
                if failure == .cancelled { return .cancelled }
                // The volume is gone, full or read-only: the next items would fail the same way.
                let stopAll = failure.meansVolumeGone || failure.code == .noSpace || failure.code == .readOnly
                if failure.code == .sourceChanged {
                    // The source stays as it is (a move removes nothing); no copy of it is put in place.
                    let message = failure.message + " (the copy was discarded)"
                    return .failed(failure.path == source ? message : "\(Self.name(source)): \(message)", stopAll: false)
                }
                return .failed("\(Self.name(source)): \(failure.message)", stopAll: stopAll)
            }
            if kind == .move {
                // Checked right before the original goes: a file changed since its copy began
                // keeps the whole item where it is, and the copy is discarded (all or nothing).
                if let changed = changedSinceCopied(source) {
                    for path in created.reversed() where Self.removeTree(path) != nil { report.leftovers.append(path) }
                    let copy = replace ? "; the copy at \(TerminalText.escaped(target)) has the content from before the change" : " (the copy was discarded)"
                    return .failed(FileSystemError.sourceChanged(changed).message + copy, stopAll: false)
                }
                let (problem, kept) = removeMoved(source)
                if let first = kept.first {
                    return .failed(FileSystemError.sourceChanged(first).message + (kept.count > 1 ? " (and \(kept.count - 1) more)" : "")
                                   + "; the copy at \(TerminalText.escaped(target)) has the content from before the change", stopAll: false)
                }
                if let problem {
                    return .failed("copied to \(target), but the original could not be removed: \(problem)", stopAll: false)
                }
                moved(source, target)
            }
            report.placed.append(Placement(source: source, target: target, sameVolume: false))
            return .done
        }
    }
}

extension FileOperation {
    /// The first file under `source` that is not as it was when its copy began, or nil.
    func changedSinceCopied(_ source: String) -> String? {
        let states = copiedStates.withLock { $0 }
        for (path, state) in states where path == source || path.hasPrefix(source + "/") {
            if FileCopier.SourceState.of(path: path) != state { return path }
        }
        return nil
    }

    /// Removes a moved item's original, each copied file checked once more right before it goes:
    /// one changed in that last moment, or one that appeared after the copy began, is kept (with
    /// the folders above it). Returns a problem in words, and the files kept.
    func removeMoved(_ path: String) -> (problem: String?, kept: [String]) {
        var info = stat()
        guard path.withFileSystemRepresentation({ lstat($0, &info) }) == 0 else {
            return (errno == ENOENT ? nil : FileSystemError.system(errno, "cannot remove \(path)").message, [])
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            var kept: [String] = []
            for name in Self.names(in: path) {
                let (problem, keptBelow) = removeMoved(path + "/" + name)
                kept += keptBelow
                if let problem { return (problem, kept) }
            }
            if !kept.isEmpty { return (nil, kept) }
            return (path.withFileSystemRepresentation { rmdir($0) } == 0 ? nil : FileSystemError.system(errno, "cannot remove \(path)").message, [])
        }
        // A file or link with no copy (it appeared after the walk) stays too; what is never copied
        // (FIFOs, sockets, devices) goes, as before.
        let type = info.st_mode & S_IFMT
        if let state = copiedStates.withLock({ $0[path] }) {
            if FileCopier.SourceState.of(path: path) != state { return (nil, [path]) }
        } else if type == S_IFREG || type == S_IFLNK {
            return (nil, [path])
        }
        return (path.withFileSystemRepresentation { unlink($0) } == 0 ? nil : FileSystemError.system(errno, "cannot remove \(path)").message, [])
    }
}
