#if canImport(Glibc)
import Glibc
#endif

/// This program's own file, as the kernel knows it (`/proc/self/exe`): where to find the files
/// installed beside it, and what identifies this build.
public enum OwnExecutable {
    /// The path (`… (deleted)` once a new build replaced the file), or nil when it cannot be read.
    public static var path: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(fileSystemBytes: buffer[0..<length].map { UInt8(bitPattern: $0) })
    }

    /// The folder holding it, without a trailing slash.
    public static var folder: String? {
        path.flatMap { path in path.lastIndex(of: "/").map { String(path[..<$0]) } }
    }
}
