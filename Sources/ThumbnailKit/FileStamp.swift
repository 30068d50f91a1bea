import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// A file's modification time (whole seconds) and size: the cache's validity key.
public struct FileStamp: Equatable, Sendable {
    public let modified: Int
    public let size: Int

    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    public init(_ status: stat) {
        modified = Int(status.st_mtim.tv_sec)
        size = Int(status.st_size)
    }

    public init(modified: Int, size: Int) {
        self.modified = modified
        self.size = size
    }
}
