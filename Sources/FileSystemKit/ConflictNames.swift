import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Names for "keep both": `photo.jpg` → `photo (2).jpg`, `photo (3).jpg`…; folders and names
/// without an extension get the number at the end.
public enum ConflictNames {
    /// The `index`-th alternative name for `name` (index 2 and up).
    public static func numbered(_ name: String, _ index: Int, isFolder: Bool = false) -> String {
        labelled(name, String(index), isFolder: isFolder)
    }

    /// `name` with `label` in brackets before its extension: `photo (edited).jpg`.
    public static func labelled(_ name: String, _ label: String, isFolder: Bool = false) -> String {
        guard !isFolder, let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "\(name) (\(label))" }
        return "\(name[..<dot]) (\(label))\(name[dot...])"
    }

    /// `path` itself if nothing is there, else the first free numbered name beside it.
    public static func free(_ path: String, isFolder: Bool = false) -> String {
        var info = stat()
        guard lstat(path, &info) == 0 else { return path }
        let slash = path.lastIndex(of: "/")!
        let folder = path[..<slash], name = String(path[path.index(after: slash)...])
        for index in 2...100_000 {
            let candidate = "\(folder)/\(numbered(name, index, isFolder: isFolder))"
            if lstat(candidate, &info) != 0 { return candidate }
        }
        return path
    }
}
