import FileSystemKit
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

extension LocalPlace {
    public func writeChunk(_ bytes: [UInt8], to path: String, at offset: Int, last: Bool, mode: UInt32?) async throws(FileSystemError) {
        guard offset >= 0 else { throw FileSystemError(code: .invalid, path: path, context: "a negative offset") }
        try await call(path, deadline: max(callDeadline, 30)) { () throws(FileSystemError) in
            // The first chunk makes the file, never over a name: a copy's temporary is its own.
            let flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW | (offset == 0 ? O_CREAT | O_EXCL : 0)
            // A copy's file is private until its last piece gives it its source's mode.
            let fd = open(path, flags, mode == nil ? 0o644 : 0o600)
            guard fd >= 0 else { throw .system(errno, "cannot write the file", path: path, call: "open") }
            defer { close(fd) }
            var done = 0
            while done < bytes.count {
                let count = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw .system(count < 0 ? errno : EIO, "cannot write the file", path: path, call: "pwrite") }
                done += count
            }
            // The last chunk is on disk before the caller renames the file into place.
            if last, fsync(fd) != 0, errno != EINVAL, errno != EROFS { throw .system(errno, "cannot write the file", path: path, call: "fsync") }
            if last, let mode, fchmod(fd, mode_t(mode & 0o7777)) != 0, !Self.hasNoPermissions(errno) {
                throw .system(errno, "cannot set the file's permissions", path: path, call: "fchmod")
            }
        }
    }

    public func setMode(_ path: String, to mode: UInt32) async throws(FileSystemError) {
        try await call(path) { () throws(FileSystemError) in
            guard chmod(path, mode_t(mode & 0o7777)) == 0 || Self.hasNoPermissions(errno) else {
                throw .system(errno, "cannot set the permissions", path: path, call: "chmod")
            }
        }
    }

    /// A volume without Unix permissions (vfat, exFAT, some mounts) refuses a chmod: the copy is
    /// kept with the mode its mount gives every file, as `cp -p` does (it warns, and copies).
    static func hasNoPermissions(_ error: Int32) -> Bool { error == EPERM || error == ENOTSUP || error == EOPNOTSUPP }
}
