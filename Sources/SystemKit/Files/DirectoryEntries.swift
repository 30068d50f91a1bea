#if canImport(Glibc)
import Glibc
#endif

/// A folder's entries in one go, for the small walks (a copy's tree, a thumbnailer folder, a
/// check of the sources) that need every name at once; big listings stream (`DirectoryLister`).
public enum DirectoryEntries {
    /// The names in `folder` with the type readdir gives (`DT_DIR`, `DT_REG`; `DT_UNKNOWN` on
    /// some filesystems), without `.` and `..`, in directory order; empty when it cannot be read.
    public static func list(_ folder: String) -> [(name: String, type: Int32)] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var result: [(name: String, type: Int32)] = []
        while let entry = readdir(directory) {
            let name = entry.pointee.name
            if name != "." && name != ".." { result.append((name, Int32(entry.pointee.d_type))) }
        }
        return result
    }
}
