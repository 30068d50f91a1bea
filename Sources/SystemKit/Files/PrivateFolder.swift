#if canImport(Glibc)
import Glibc
#endif

/// A folder only this user may enter, for sockets and locks: made 0700 when missing, and refused
/// when what is there is not a real folder of ours closed to everyone else (in /tmp another user
/// could have made it first, or put a symbolic link there).
public enum PrivateFolder {
    /// Makes `path` (its parent must exist) or checks the one there; throws when it cannot be trusted.
    public static func make(_ path: String) throws(FileSystemError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw FileSystemError(errno: errno, call: "mkdir", path: path, context: "cannot make \(path)")
        }
        var status = stat()
        _ = try SystemCall.run("lstat", path: path) { lstat(path, &status) }
        if let problem = problem(mode: status.st_mode, owner: status.st_uid, user: geteuid()) {
            throw FileSystemError(code: .permissionDenied, path: path, call: "lstat", context: "\(path) \(problem)")
        }
    }

    /// What is wrong with a folder of this mode and owner for `user`; nil when nothing is.
    public static func problem(mode: mode_t, owner: uid_t, user: uid_t) -> String? {
        if (mode & S_IFMT) != S_IFDIR { return "is not a folder (a symbolic link or a file is in its place)" }
        if owner != user { return "belongs to user \(owner), not to us (\(user))" }
        if (mode & 0o077) != 0 { return "is open to other users (mode \(String(mode & 0o777, radix: 8)), should be 700)" }
        return nil
    }
}
