import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Walking, naming and removing trees, for checking and undoing.
extension FileOperation {
    /// A folder's entries with the type readdir gives (DT_UNKNOWN on some filesystems: those go the careful way).
    static func namesAndTypes(in folder: String) -> [(String, Int32)] {
        DirectoryEntries.list(folder).map { ($0.name, $0.type) }
    }

    struct TreeItem: Sendable {
        let relative: String
        let name: String
        let size: Int64
        let isSymlink: Bool
    }

    /// Every item under `path` (itself included), names relative to its parent.
    static func walk(_ path: String) -> [TreeItem] {
        var result: [TreeItem] = []
        var pending = [(path, name(path))]
        while let (current, relative) = pending.popLast() {
            var info = stat()
            guard lstat(current, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            result.append(TreeItem(relative: relative, name: name(current), size: type == S_IFREG ? Int64(info.st_size) : 0, isSymlink: type == S_IFLNK))
            if type == S_IFDIR {
                for child in names(in: current) { pending.append((current + "/" + child, relative + "/" + child)) }
            }
        }
        return result
    }

    static func names(in folder: String) -> [String] { namesAndTypes(in: folder).map(\.0) }

    /// Removes a file, link or whole folder; a problem in words, or nil.
    static func removeTree(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? nil : FileSystemError.system(errno, "cannot remove \(path)").message }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            for name in names(in: path) {
                if let problem = removeTree(path + "/" + name) { return problem }
            }
            return rmdir(path) == 0 ? nil : FileSystemError.system(errno, "cannot remove \(path)").message
        }
        return unlink(path) == 0 ? nil : FileSystemError.system(errno, "cannot remove \(path)").message
    }

    /// Two names in the same folder that a case-insensitive volume would take for one.
    static func caseClash(_ relatives: [String], existing: [String]) -> String? {
        var seen: [String: String] = [:]
        for name in existing { seen[name.lowercased()] = name }
        for relative in relatives {
            let key = relative.lowercased()
            if let other = seen[key], other != relative { return "\"\(other)\" and \"\(relative)\"" }
            seen[key] = relative
        }
        return nil
    }

    static func device(of path: String) -> dev_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_dev : nil
    }

    public static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The last component, safe to put on screen (escape sequences in names shown escaped).
    public static func escapedName(_ path: String) -> String { TerminalText.escaped(name(path)) }

    static func bytes(_ count: Int64) -> String { ByteCount.text(Int(clamping: count)) }
}
