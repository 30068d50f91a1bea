import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Writes an edit's result into the file the caller made for it (a temporary beside the
/// original), flushed to the disk before the caller renames it into place.
enum EditOutput {
    static func write(_ bytes: [UInt8], to path: String) throws(ThumbnailError) {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path) }
        defer { close(fd) }
        guard FileDescriptorWriter.writeAll(bytes, to: fd) else { throw failure(path) }
        try flush(fd, path)
    }

    /// Flushes a file another library wrote.
    static func flush(path: String) throws(ThumbnailError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path) }
        defer { close(fd) }
        try flush(fd, path)
    }

    private static func flush(_ fd: Int32, _ path: String) throws(ThumbnailError) {
        guard fsync(fd) == 0 else { throw failure(path) }
    }

    private static func failure(_ path: String) -> ThumbnailError {
        let code = errno
        return ThumbnailError(.writeFailed, "cannot write the edited file: \(String(cString: strerror(code)))")
    }
}
