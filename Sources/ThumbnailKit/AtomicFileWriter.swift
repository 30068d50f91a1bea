import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file so that readers see either the old file or the whole new one, never a part:
/// a temporary file in the same folder, then rename over the final name. On any failure the
/// temporary file is removed and nothing else is touched. `durable` adds an fsync before the
/// rename, for data that cannot be made again (thumbnails can: they skip it, as every file
/// manager does, and a batch of thousands stays fast).
public enum AtomicFileWriter {
    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644, durable: Bool = false) throws(ThumbnailError) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let base = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let file: TemporaryFile
        do throws(FileSystemError) {
            // The temporary's name stays within the 255 bytes of a name, however long `base` is.
            file = try TemporaryFile.create(template: "\(folder.isEmpty ? "/" : folder)/.\(FileSystemBytes.prefix(of: base, bytes: 200)).XXXXXX.tmp", suffixLength: 4)
        } catch {
            throw writeError(path, error.errno)
        }
        let (fd, temporary) = (file.descriptor, file.path)
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        guard FileDescriptorWriter.writeAll(bytes, to: fd) else {
            let code = errno
            close(fd)
            throw writeError(path, code)
        }
        fchmod(fd, permissions)
        if durable && fsync(fd) != 0 && errno != EINVAL && errno != EROFS {
            let code = errno
            close(fd)
            throw writeError(path, code)
        }
        close(fd)
        guard rename(temporary, path) == 0 else { throw writeError(path, errno) }
        ok = true
    }

    /// Writes `name` inside the folder descriptor `folder` (a place others may write, such as a
    /// shared thumbnail repository): the temporary file is made there with `O_EXCL | O_NOFOLLOW`
    /// (nothing planted under its name is opened or written through) and renamed over `name`
    /// within the same folder, so a link, FIFO or file planted as `name` is replaced, never written.
    public static func write(_ bytes: [UInt8], into folder: Int32, name: String, permissions: mode_t) throws(ThumbnailError) {
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<8 where fd < 0 {
            temporary = ".\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
            fd = SystemCall.retryingInterrupts {
                temporary.withFileSystemRepresentation { openat(folder, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
            }
            if fd < 0 && errno != EEXIST { break }
        }
        guard fd >= 0 else { throw writeError(name, errno) }
        var ok = false
        defer {
            if !ok { _ = temporary.withFileSystemRepresentation { unlinkat(folder, $0, 0) } }
        }
        guard FileDescriptorWriter.writeAll(bytes, to: fd), fchmod(fd, permissions) == 0 else {
            let code = errno
            close(fd)
            throw writeError(name, code)
        }
        close(fd)
        let renamed = temporary.withFileSystemRepresentation { from in name.withFileSystemRepresentation { to in renameat(folder, from, folder, to) } }
        guard renamed == 0 else { throw writeError(name, errno) }
        ok = true
    }

    /// A file of the user's own state (bookmarks, the undo journal): its folder made as needed,
    /// only the user may read it, and it is on the disk before it replaces the old one.
    public static func writeState(_ bytes: [UInt8], to path: String) throws(ThumbnailError) {
        FolderMaker.make(path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ".")
        try write(bytes, to: path, permissions: 0o600, durable: true)
    }

    private static func writeError(_ path: String, _ code: Int32) -> ThumbnailError {
        ThumbnailError(.writeFailed, "cannot write \(path): \(String(cString: strerror(code)))")
    }
}
