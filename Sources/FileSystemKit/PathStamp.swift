import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// What a file or folder was when an operation left it: its identity, size and time. An undo
/// compares it with what is there now, and refuses when someone changed the file meanwhile
/// (undoing then would lose their change).
public struct PathStamp: Sendable, Equatable, Codable {
    public let device: UInt64
    public let inode: UInt64
    public let isFolder: Bool
    /// Files only (a folder's own size and time change with what is inside).
    public let size: Int64
    public let seconds: Int
    public let nanoseconds: Int

    /// The stamp of what is at `path` now, or nil when nothing is (not following a last link).
    public static func of(_ path: String) -> PathStamp? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        let isFolder = status.st_mode & S_IFMT == S_IFDIR
        return PathStamp(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), isFolder: isFolder,
                         size: isFolder ? 0 : Int64(status.st_size), seconds: isFolder ? 0 : status.st_mtim.tv_sec,
                         nanoseconds: isFolder ? 0 : status.st_mtim.tv_nsec)
    }

    /// Why `path` is not as stamped, or nil when it is: "gone", "changed since".
    public static func problem(_ path: String, expected: PathStamp) -> String? {
        problem(path, now: of(path), expected: expected)
    }

    /// Why `path`, whose stamp is `now` (read where it is: a remote's own), is not as stamped.
    public static func problem(_ path: String, now: PathStamp?, expected: PathStamp) -> String? {
        let name = FileOperation.escapedName(path)
        guard let now else { return "\(name) is gone" }
        if now.device != expected.device || now.inode != expected.inode { return "\(name) is another file now" }
        if now != expected { return "\(name) changed since" }
        return nil
    }
}
