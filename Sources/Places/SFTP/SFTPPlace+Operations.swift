import FileSystemKit
import SystemKit
import ThumbnailKit

extension SFTPPlace {
    /// Refused: SFTP version 3 cannot replace a file atomically (its RENAME never goes over an
    /// existing name), and a write that could leave half a file is not done differently. (Copies
    /// into it are `writeChunk` under a temporary name, renamed to a name that is free.)
    public func write(_ bytes: [UInt8], to path: String) async throws(FileSystemError) {
        throw refused("saving a file", path)
    }

    /// RENAME, which OpenSSH's server does as link and unlink (never over an existing name:
    /// then `.exists`). No stamp: SFTP knows no device or inode, so the undo journal gets none.
    public func rename(_ path: String, to newPath: String) async throws(FileSystemError) -> PathStamp? {
        do throws(FileSystemError) {
            _ = try await call(.rename(from: path.fileSystemBytes, to: newPath.fileSystemBytes), path: path)
            return nil
        } catch {
            throw await taken(newPath) ? FileSystemError(code: .exists, path: newPath) : error
        }
    }

    /// MKDIR, or OPEN with CREAT|EXCL and CLOSE: never over an existing name.
    public func make(_ path: String, folder: Bool) async throws(FileSystemError) -> PathStamp? {
        do throws(FileSystemError) {
            if folder {
                _ = try await call(.makeDirectory(path: path.fileSystemBytes), path: path)
            } else {
                let flags = SFTPRequest.writeFlag | SFTPRequest.createFlag | SFTPRequest.exclusiveFlag
                let handle = try await open(path, flags: flags)
                _ = try await call(.close(handle: handle), path: path)
            }
            return nil
        } catch {
            guard error.code != .exists, error.code != .permissionDenied else { throw error }
            throw await taken(path) ? FileSystemError(code: .exists, path: path) : error
        }
    }

    /// Whether something is at `path` (a refusal that was a name taken says so).
    private func taken(_ path: String) async -> Bool { await exists(path) }

    /// An SFTP server has no trash: copies do not overwrite, and moves do not start, here.
    public var hasTrash: Bool { false }

    /// Refused: an SFTP server has no trash, and deleting instead is not what was asked.
    public func trash(_ path: String) async throws(FileSystemError) -> TrashCan.Item {
        throw refused("moving to the trash (a server reached by SFTP has no trash)", path)
    }

    public func restore(_ item: TrashCan.Item) async throws(FileSystemError) -> String {
        throw refused("restoring from the trash", item.originalPath)
    }

    public func capabilities(of folder: String, trial: Bool) async throws(FileSystemError) -> VolumeCapabilities {
        VolumeCapabilities(isReadOnly: false, nameMax: 255, isCaseInsensitive: nil, supportsSymlinks: nil, maximumFileSize: nil, forbiddenCharacters: [])
    }

    private func refused(_ what: String, _ path: String) -> FileSystemError {
        FileSystemError(code: .unsupported, path: path,
                        context: "\(what) is not done on \(TerminalText.escaped(name)) over SFTP (install qlbrowse there for it)")
    }
}
