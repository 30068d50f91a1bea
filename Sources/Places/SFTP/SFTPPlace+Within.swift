import FileSystemKit
import SystemKit

extension SFTPPlace {
    /// A copy from one folder of the server to another: `PlaceTransfer` from this place to
    /// itself (temporaries, a rename into place, never over a name, the questions and progress of
    /// any copy between places), each file copied by the server itself (`copyOnServer`) when it
    /// offers OpenSSH's `copy-data`, else read and written through the link (SFTP version 3 has
    /// no copy of its own: every byte crosses twice).
    func copyWithin(_ operation: FileOperation, events: FileOperationEvents) async -> FileOperation.Report {
        await PlaceTransfer(from: self, to: self).copy(operation, events: events)
    }

    /// A move from one folder of the server to another: RENAME, nothing crosses and nothing is
    /// deleted (so no trash is needed). A name taken there is asked about: skip, keep both
    /// ("name (2)"); overwrite is refused (the item there would be lost, with no trash). A
    /// rename the server refuses (another disk there) is reported with what to do instead.
    func moveWithin(_ operation: FileOperation, events: FileOperationEvents) async throws(FileSystemError) -> FileOperation.Report {
        var report = FileOperation.Report()
        guard let folder = operation.destination else { return report }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        for (index, source) in operation.sources.enumerated() {
            if operation.isCancelled {
                report.cancelled = true
                report.notDone += operation.sources[index...]
                break
            }
            let name = FileOperation.name(source)
            var target = prefix + name
            if target == source {
                report.skipped.append(source)
                continue
            }
            do throws(FileSystemError) {
                let isFolder = try await item(at: source).isDirectory
                if await exists(target) {
                    let (choice, _) = await PlaceTransfer.ask(events, FileOperation.Conflict(source: source, destination: target, destinationIsFolder: isFolder))
                    switch choice {
                    case .skip:
                        report.skipped.append(source)
                        continue
                    case .overwrite:
                        throw FileSystemError(code: .unsupported, path: target, context: "not overwritten: \(TerminalText.escaped(name)) "
                                                + "is reached by SFTP and has no trash, so the item there would be lost; keep both, or skip")
                    case .keepBoth:
                        var number = 2
                        while await exists(target), number < 10_000 {
                            target = prefix + ConflictNames.numbered(name, number, isFolder: isFolder)
                            number += 1
                        }
                    }
                }
                _ = try await rename(source, to: target)
                events.moved(source, target)
                report.done.append(source)
                report.placed.append(FileOperation.Placement(source: source, target: target, sameVolume: true))
            } catch {
                if error.code == .notResponding || error.code == .volumeGone { throw error }
                report.notDone.append(source)
                let hint = error.code == .other ? " (the server could not rename it there: copy it, then delete it)" : ""
                report.failures.append("\(TerminalText.escaped(name)): \(error.message)\(hint)")
            }
        }
        return report
    }

    /// `copy-data`: `temporary` made (CREAT|EXCL, 0600) and filled by the server from `path`, flushed
    /// and closed; false, with the temporary removed, when the server does not offer it (then
    /// not asked again). The answer comes when the server has copied it all: its deadline
    /// grows with the size (20 MB/s).
    func copyOnServer(_ path: String, to temporary: String, size: Int) async throws(FileSystemError) -> Bool {
        guard !lacksCopyData.load(ordering: .relaxed) else { return false }
        let source = try await open(path, flags: SFTPRequest.readFlag)
        defer { closeHandle(source) }
        // Made 0600 (a private file is never more open on its way): the caller gives it its mode.
        guard case .handle(_, let target) = try await call(.create(path: temporary.fileSystemBytes, flags: SFTPRequest.writeFlag
            | SFTPRequest.createFlag | SFTPRequest.exclusiveFlag, permissions: 0o600), path: temporary) else { throw unexpected(temporary) }
        do throws(FileSystemError) {
            _ = try await call(.copyData(from: source, offset: 0, length: 0, to: target, at: 0), path: path,
                               deadline: max(callDeadline, 30) + Double(size) / 20e6)
            try await flush(target, path: temporary)
        } catch {
            closeHandle(target)
            guard error.code == .unsupported else { throw error }
            lacksCopyData.store(true, ordering: .relaxed)
            _ = try await call(.remove(path: temporary.fileSystemBytes), path: temporary)
            return false
        }
        _ = try await call(.close(handle: target), path: temporary)
        if RemoteTrace.isOn { RemoteTrace.note("sftp", "copy-data \(size) bytes \(path)") }
        return true
    }
}
