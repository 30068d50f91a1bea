#if canImport(Glibc)
import Glibc
#endif

/// This program's own file, as the kernel knows it (`/proc/self/exe`): where to find the files
/// installed beside it, and what identifies this build.
public enum OwnExecutable {
    /// The path (`… (deleted)` once a new build replaced the file), or nil when it cannot be read.
    public static var path: String? {
        readLink("/proc/self/exe")
    }

    /// The folder holding it, without a trailing slash.
    public static var folder: String? {
        path.flatMap { path in path.lastIndex(of: "/").map { String(path[..<$0]) } }
    }
}
