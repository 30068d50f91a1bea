internal import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// Renames that never replace what is at the destination.
public enum FileRename {
    /// renameat2(RENAME_NOREPLACE): fails with EEXIST instead of replacing a file that appeared
    /// at `destination`. EINVAL or ENOSYS where the filesystem cannot (some FUSE ones).
    public static func noReplace(_ source: String, to destination: String) throws(FileSystemError) {
        _ = try SystemCall.run("renameat2", path: destination) {
            source.withFileSystemRepresentation { from in destination.withFileSystemRepresentation { to in CSystem_rename_noreplace(from, to) } }
        }
    }

    /// Whether a `noReplace` failure means only that the filesystem cannot do it (so a caller
    /// may fall back to another way that also refuses to overwrite).
    public static func isUnsupported(_ error: FileSystemError) -> Bool { error.errno == EINVAL || error.errno == ENOSYS }

    /// RENAME_NOREPLACE, or where the filesystem has none, a look before an ordinary rename.
    public static func noReplaceOrLook(_ source: String, to destination: String) throws(FileSystemError) {
        do {
            try noReplace(source, to: destination)
        } catch where isUnsupported(error) {
            var info = stat()
            if lstat(destination, &info) == 0 { throw FileSystemError(errno: EEXIST, call: "rename", path: destination) }
            _ = try SystemCall.run("rename", path: destination) { rename(source, destination) }
        }
    }
}
