import CSystem
import Dispatch
import Synchronization
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// A copy, move, trash or delete of several items that never loses data. Everything is checked
/// before the first byte is written (free space, FAT's 4 GiB limit, read-only volumes, names the
/// target refuses, case clashes); each item is all or nothing: a copy goes through a temporary
/// and a rename, a move across volumes deletes its source only after the copy is complete and on
/// disk, and an item that is cancelled or fails leaves nothing of itself at the destination.
/// Blocking: run it on a thread of its own (`VolumeIO`).
public final class FileOperation: Sendable {
    public enum Kind: String, Sendable, Equatable {
        case copy, move, trash, delete
    }

    /// What to do when the destination has something of the same name.
    public enum ConflictChoice: Sendable, Equatable {
        case overwrite, skip, keepBoth
    }

    public struct Conflict: Sendable, Equatable {
        public let source: String
        public let destination: String
        public let destinationIsFolder: Bool
    }

    public struct Progress: Sendable, Equatable {
        public var bytesDone: Int64 = 0
        public var bytesTotal: Int64 = 0
        public var itemsDone = 0
        public var itemsTotal = 0
        public var current = ""
    }

    /// What happened, item by item (the items the user chose, not every file inside them).
    public struct Report: Sendable, Equatable {
        public var done: [String] = []
        public var skipped: [String] = []
        public var notDone: [String] = []
        public var failures: [String] = []
        /// Temporaries that could not be removed (their volume went away): named so the user can.
        public var leftovers: [String] = []
        public var trashed: [TrashCan.Item] = []
        public var cancelled = false

        public var summary: String {
            var parts = ["\(done.count) done"]
            if !skipped.isEmpty { parts.append("\(skipped.count) skipped") }
            if !notDone.isEmpty { parts.append("\(notDone.count) not done") }
            // What the user must clean up comes first: a temporary the vanished volume kept.
            if !leftovers.isEmpty { parts.insert("temporary file left (volume gone): " + leftovers.joined(separator: ", "), at: 0) }
            return parts.joined(separator: ", ")
        }
    }

    public let kind: Kind
    public let sources: [String]
    /// The folder copies and moves go into.
    public let destination: String?
    /// The items found by `problem(destinationCapabilities:)`, so that `run` does not walk again.
    private let checkedTree = Mutex<[TreeItem]?>(nil)
    private let cancelledFlag = Atomic<Bool>(false)
    private let pausedFlag = Atomic<Bool>(false)

    /// Read every copied file back and compare it with its original before putting it in place.
    public let verifiesContent: Bool

    public init(kind: Kind, sources: [String], destination: String?, verifiesContent: Bool = false) {
        self.verifiesContent = verifiesContent
        self.kind = kind
        self.sources = sources
        self.destination = destination
    }

    public func cancel() { cancelledFlag.store(true, ordering: .relaxed) }
    public var isCancelled: Bool { cancelledFlag.load(ordering: .relaxed) }
    public func setPaused(_ paused: Bool) { pausedFlag.store(paused, ordering: .relaxed) }
    public var isPaused: Bool { pausedFlag.load(ordering: .relaxed) }

    // MARK: Checking

    /// Why the operation cannot start, in words, or nil. Reads only (the capabilities come from a
    /// probe of the destination).
    public func problem(destinationCapabilities capabilities: VolumeCapabilities?) -> String? {
        for source in sources {
            var info = stat()
            if lstat(source, &info) != 0 { return "cannot read \(source): \(String(cString: strerror(errno)))" }
        }
        guard kind == .copy || kind == .move, let destination else { return nil }
        let sameVolume = kind == .move && sources.allSatisfy { Self.device(of: $0) == Self.device(of: destination) }
        if let capabilities, capabilities.isReadOnly { return "\(destination) is on a read-only volume" }
        for source in sources where destination == source || destination.hasPrefix(source + "/") {
            return "cannot put \(Self.name(source)) inside itself"
        }
        let tree = sources.flatMap { Self.walk($0) }
        checkedTree.withLock { $0 = tree }
        if let capabilities {
            for item in tree {
                if let problem = capabilities.problem(withName: item.name) { return "\(item.relative): \(problem)" }
                if let limit = capabilities.maximumFileSize, item.size > limit {
                    return "\(item.relative) is \(Self.bytes(item.size)); this volume (FAT) holds files up to 4 GiB"
                }
                if item.isSymlink && capabilities.supportsSymlinks == false { return "\(item.relative) is a symbolic link, which this volume cannot hold" }
            }
            if capabilities.isCaseInsensitive == true, let clash = Self.caseClash(tree.map(\.relative), existing: Self.names(in: destination)) {
                return "\(clash) differ only in case, which this volume does not tell apart"
            }
        }
        if !sameVolume {
            let needed = tree.reduce(Int64(0)) { $0 + $1.size }
            var space = statvfs()
            if statvfs(destination, &space) == 0 {
                let free = Int64(space.f_bavail) * Int64(space.f_frsize)
                if needed > free { return "needs \(Self.bytes(needed)), \(destination) has \(Self.bytes(free)) free" }
            }
        }
        return nil
    }

    // MARK: Running

    /// Carries the operation out. `resolve` is asked (and may block for the user) when a name is
    /// taken; `progress` hears about every chunk; `moved`/`removed` let thumbnails follow.
    public func run(trash: TrashCan?, resolve: (Conflict) -> (ConflictChoice, applyToAll: Bool),
                    progress: @escaping @Sendable (Progress) -> Void,
                    moved: (String, String) -> Void = { _, _ in }, removed: (String) -> Void = { _ in }) -> Report {
        var report = Report()
        let tree = kind == .trash ? [] : checkedTree.withLock { $0 } ?? sources.flatMap { Self.walk($0) }
        let state = ProgressBox(Progress(bytesTotal: tree.reduce(0) { $0 + $1.size }, itemsTotal: sources.count))
        var remembered: ConflictChoice?
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

    private enum ItemOutcome {
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
                let status = replace ? rename(source, target) : CSystem_rename_noreplace(source, target)
                if status == 0 {
                    progressState.withLock { $0.bytesDone += Self.walk(target).reduce(0) { $0 + $1.size } }
                    moved(source, target)
                    return .done
                }
                let code = errno
                if code != EXDEV && code != ENOTEMPTY && code != EEXIST && code != EINVAL {
                    return .failed("cannot move \(source): \(String(cString: strerror(code)))", stopAll: false)
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
                let gone = [ENOTCONN, EIO, ENODEV, ESTALE, ENOSPC, EDQUOT, EROFS, ECONNABORTED].contains(failure.code)
                return .failed("\(Self.name(source)): \(failure.message)", stopAll: gone)
            }
            if kind == .move {
                if let problem = Self.removeTree(source) {
                    return .failed("copied to \(target), but the original could not be removed: \(problem)", stopAll: false)
                }
                moved(source, target)
            }
            return .done
        }
    }

    /// Copies a file, link or folder tree; records what it creates, for undoing.
    private func copyTree(_ source: String, to target: String, replace: Bool, durable: Bool, control: FileCopier.Control,
                          created: inout [String], report: inout Report) -> FileCopier.Failure? {
        var info = stat()
        guard lstat(source, &info) == 0 else { return .system(errno, "cannot read \(source)") }
        if control.isCancelled() { return .cancelled }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            var existing = stat()
            let merging = lstat(target, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFDIR
            if !merging {
                if replace { unlink(target) }
                guard mkdir(target, 0o700) == 0 else { return .system(errno, "cannot make \(target)") }
                created.append(target)
            }
            var files: [String] = []
            for (name, type) in Self.namesAndTypes(in: source) {
                if type == DT_REG {
                    files.append(name)
                    continue
                }
                if let failure = copyTree(source + "/" + name, to: target + "/" + name, replace: merging || replace, durable: durable,
                                          control: control, created: &created, report: &report) { return failure }
            }
            if let failure = copyFiles(files, from: source, to: target, replace: merging || replace, durable: durable, control: control,
                                       created: &created, report: &report) { return failure }
            chmod(target, info.st_mode & 0o7777)
            var times = [info.st_atim, info.st_mtim]
            utimensat(AT_FDCWD, target, &times, 0)
            return nil
        case S_IFLNK:
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(source, &buffer, buffer.count - 1)
            guard count >= 0 else { return .system(errno, "cannot read the link \(source)") }
            if replace { unlink(target) }
            guard symlink(String(cString: Array(buffer[0..<count]) + [0]), target) == 0 else { return .system(errno, "cannot make the link \(target)") }
            created.append(target)
            return nil
        case S_IFREG:
            var leftover: String?
            do {
                try FileCopier.copy(source, to: target, replace: replace, durable: durable, verify: verifiesContent, control: control, leftover: &leftover)
            } catch {
                if let leftover { report.leftovers.append(leftover) }
                return error
            }
            if !replace { created.append(target) }
            return nil
        default:
            return nil  // devices, sockets, fifos: not copied
        }
    }

    /// A folder's plain files, copied by a few threads at once: small files are bound by the
    /// round trips of open, create and rename, not by bytes, and a share answers several at a time.
    private func copyFiles(_ names: [String], from source: String, to target: String, replace: Bool, durable: Bool,
                           control: FileCopier.Control, created: inout [String], report: inout Report) -> FileCopier.Failure? {
        guard !names.isEmpty else { return nil }
        let outcome = Mutex<(created: [String], leftovers: [String], failure: FileCopier.Failure?)>(([], [], nil))
        let lanes = min(4, names.count)
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            var index = lane
            while index < names.count {
                if outcome.withLock({ $0.failure != nil }) || control.isCancelled() { break }
                let from = source + "/" + names[index], to = target + "/" + names[index]
                var leftover: String?
                do throws(FileCopier.Failure) {
                    try FileCopier.copy(from, to: to, replace: replace, durable: durable, verify: verifiesContent, control: control, leftover: &leftover)
                    if !replace { outcome.withLock { $0.created.append(to) } }
                } catch {
                    outcome.withLock { state in
                        if let leftover { state.leftovers.append(leftover) }
                        if state.failure == nil { state.failure = error }
                    }
                }
                index += lanes
            }
        }
        let result = outcome.withLock { $0 }
        created += result.created
        report.leftovers += result.leftovers
        if result.failure == nil && control.isCancelled() { return .cancelled }
        return result.failure
    }

    // MARK: Helpers

    /// A folder's entries with the type readdir gives (DT_UNKNOWN on some filesystems: those go the careful way).
    static func namesAndTypes(in folder: String) -> [(String, Int32)] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var result: [(String, Int32)] = []
        while let entry = readdir(directory) {
            let name = entry.pointee.name
            if name != "." && name != ".." { result.append((name, Int32(entry.pointee.d_type))) }
        }
        return result
    }

    struct TreeItem: Sendable {
        let relative: String
        let name: String
        let size: Int64
        let isSymlink: Bool
    }

    /// Every item under `path` (itself included), names relative to its parent.
    static func walk(_ path: String) -> [TreeItem] {
        var result: [TreeItem] = []
        var pending = [(path, name(path))]
        while let (current, relative) = pending.popLast() {
            var info = stat()
            guard lstat(current, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            result.append(TreeItem(relative: relative, name: name(current), size: type == S_IFREG ? Int64(info.st_size) : 0, isSymlink: type == S_IFLNK))
            if type == S_IFDIR {
                for child in names(in: current) { pending.append((current + "/" + child, relative + "/" + child)) }
            }
        }
        return result
    }

    static func names(in folder: String) -> [String] { namesAndTypes(in: folder).map(\.0) }

    /// Removes a file, link or whole folder; a problem in words, or nil.
    static func removeTree(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? nil : "cannot remove \(path): \(String(cString: strerror(errno)))" }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            for name in names(in: path) {
                if let problem = removeTree(path + "/" + name) { return problem }
            }
            return rmdir(path) == 0 ? nil : "cannot remove \(path): \(String(cString: strerror(errno)))"
        }
        return unlink(path) == 0 ? nil : "cannot remove \(path): \(String(cString: strerror(errno)))"
    }

    /// Two names in the same folder that a case-insensitive volume would take for one.
    static func caseClash(_ relatives: [String], existing: [String]) -> String? {
        var seen: [String: String] = [:]
        for name in existing { seen[name.lowercased()] = name }
        for relative in relatives {
            let key = relative.lowercased()
            if let other = seen[key], other != relative { return "\"\(other)\" and \"\(relative)\"" }
            seen[key] = relative
        }
        return nil
    }

    static func device(of path: String) -> dev_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_dev : nil
    }

    static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func bytes(_ count: Int64) -> String { ByteCount.text(Int(clamping: count)) }
}
