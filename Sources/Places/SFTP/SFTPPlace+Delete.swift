import FileSystemKit
import SystemKit

extension SFTPPlace {
    /// A delete (confirmed in the browser as any delete is) done by REMOVE and RMDIR, a folder's
    /// content first, never following a link (a link is removed, not what it points to); each
    /// source reported done or not with why. A copy or move within the server is
    /// `copyWithin`/`moveWithin`; the trash is refused (an SFTP server has none). Throws only
    /// when the place stopped answering.
    public func perform(_ operation: FileOperation, events: FileOperationEvents) async throws(FileSystemError) -> FileOperation.Report {
        switch operation.kind {
        case .copy: return await copyWithin(operation, events: events)
        case .move: return try await moveWithin(operation, events: events)
        case .trash: throw FileSystemError(code: .unsupported, path: name, context: "moving to the trash is not done on \(TerminalText.escaped(name)) "
                                                + "over SFTP (a server reached by SFTP has no trash; install qlbrowse there for it)")
        case .delete: break
        }
        var report = FileOperation.Report()
        for (index, source) in operation.sources.enumerated() {
            if operation.isCancelled {
                report.cancelled = true
                report.notDone += operation.sources[index...]
                break
            }
            do throws(FileSystemError) {
                try await remove(source, operation: operation)
                events.removed(source)
                report.done.append(source)
            } catch {
                if error.code == .notResponding || error.code == .volumeGone { throw error }
                report.notDone.append(source)
                report.failures.append(error.message)
                if error.code == .cancelled { report.cancelled = true }
            }
        }
        return report
    }

    /// Removes `path` and, when it is a folder (not a link to one), everything in it.
    private func remove(_ path: String, operation: FileOperation) async throws(FileSystemError) {
        if operation.isCancelled { throw FileSystemError(code: .cancelled, path: path, context: "cancelled") }
        guard case .attributes(_, let own) = try await call(.lstat(path: path.fileSystemBytes), path: path) else { throw unexpected(path) }
        guard own.isDirectory else {
            _ = try await call(.remove(path: path.fileSystemBytes), path: path)
            return
        }
        guard case .handle(_, let handle) = try await call(.openDirectory(path: path.fileSystemBytes), path: path) else { throw unexpected(path) }
        var children: [[UInt8]] = []
        do throws(FileSystemError) {
            while case .names(_, let names) = try await call(.readDirectory(handle: handle), path: path, allowsEndOfFile: true) {
                children += names.map(\.name).filter { $0 != [0x2E] && $0 != [0x2E, 0x2E] && !$0.isEmpty && !$0.contains(0x2F) && !$0.contains(0) }
            }
        } catch {
            closeHandle(handle)
            throw error
        }
        closeHandle(handle)
        let prefix = path.hasSuffix("/") ? path : path + "/"
        for child in children { try await remove(prefix + String(fileSystemBytes: child), operation: operation) }
        _ = try await call(.removeDirectory(path: path.fileSystemBytes), path: path)
    }
}
