#if canImport(Glibc)
import Glibc
#endif

/// `mkdir -p` with a mode for each folder it makes.
public enum FolderMaker {
    /// True when the folder exists afterwards (made now or before).
    @discardableResult
    public static func make(_ path: String, mode: mode_t = 0o700) -> Bool {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, mode) != 0 && errno != EEXIST { return false }
        }
        return true
    }
}
