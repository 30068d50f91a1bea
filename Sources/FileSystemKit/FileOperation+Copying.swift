import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

extension FileOperation {
    /// Copies a file, link or folder tree; records what it creates, for undoing.
    func copyTree(_ source: String, to target: String, replace: Bool, durable: Bool, control: FileCopier.Control,
                          created: inout [String], report: inout Report) -> FileCopier.Failure? {
        var info = stat()
        guard lstat(source, &info) == 0 else { return .system(errno, "cannot read \(source)") }
        if control.isCancelled() { return .cancelled }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            var existing = stat()
            let merging = lstat(target, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFDIR
            if merging {
                report.removedLeftovers += FileCopier.removeLeftovers(in: target).map { target + "/" + $0 }
            } else {
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
            guard let linkTarget = readLink(source) else { return .system(errno, "cannot read the link \(source)") }
            if replace { unlink(target) }
            guard symlink(linkTarget, target) == 0 else { return .system(errno, "cannot make the link \(target)") }
            created.append(target)
            copiedStates.withLock { $0[source] = FileCopier.SourceState(info) }
            return nil
        case S_IFREG:
            var leftover: String?
            do {
                let state = try FileCopier.copy(source, to: target, replace: replace, durable: durable, verify: verifiesContent, control: control, leftover: &leftover)
                copiedStates.withLock { $0[source] = state }
            } catch {
                if let leftover { report.leftovers.append(leftover) }
                return error
            }
            if !replace { created.append(target) }
            return nil
        default:
            // Devices, sockets, FIFOs are not copied, and said so: the item is not done (a move
            // keeps its source), never reported as done with a part missing.
            return .system(0, "\(FileOperation.escapedName(source)) \(FileKind(mode: info.st_mode).refusal), not copied", path: source)
        }
    }

    /// A folder's plain files, copied by a few threads at once: small files are bound by the
    /// round trips of open, create and rename, not by bytes, and a share answers several at a time.
    func copyFiles(_ names: [String], from source: String, to target: String, replace: Bool, durable: Bool,
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
                    let state = try FileCopier.copy(from, to: to, replace: replace, durable: durable, verify: verifiesContent, control: control, leftover: &leftover)
                    copiedStates.withLock { $0[from] = state }
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
}
