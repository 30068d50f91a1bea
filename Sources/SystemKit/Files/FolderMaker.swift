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
            // Appended as a Substring, not `"/" + part`: that generic `+` cost each short call
            // 0.2 M instructions (its conformances looked up at run time) for a five-part path.
            current.append("/")
            current.append(contentsOf: part)
            if mkdir(current, mode) != 0 && errno != EEXIST { return false }
        }
        return true
    }
}
