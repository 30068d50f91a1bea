import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The freedesktop.org Trash: `$XDG_DATA_HOME/Trash` for files on the home volume,
/// `$topdir/.Trash/$uid` or `$topdir/.Trash-$uid` on other volumes, each with `files/` and
/// `info/NAME.trashinfo` (Path, DeletionDate). What qlbrowse trashes shows in every other file
/// manager's trash and can be restored there, and the other way round.
public struct TrashCan: Sendable {
    /// Where one item went, to restore it.
    public struct Item: Sendable, Equatable, Codable {
        public let originalPath: String
        public let trashedPath: String
        public let infoPath: String

        /// An item trashed at `trashedPath` from `originalPath` (a router puts a remote's prefix
        /// back on the paths a remote place gives).
        public init(originalPath: String, trashedPath: String, infoPath: String) {
            self.originalPath = originalPath
            self.trashedPath = trashedPath
            self.infoPath = infoPath
        }
    }

    /// Why trashing or restoring failed: the errno and what was being done.
    public typealias Failure = FileSystemError

    /// The home trash, `$XDG_DATA_HOME/Trash`.
    public let homeTrash: String
    /// Mount points, to find a file's top directory.
    public let mountPoints: [String]

    public init(dataHome: String, mountPoints: [String]) {
        self.homeTrash = dataHome + "/Trash"
        self.mountPoints = mountPoints
    }

    /// Moves `path` (absolute) to the trash of its volume; the .trashinfo is written first, with
    /// O_EXCL, so two trashings never take the same name.
    public func trash(_ path: String, now: Int = Int(time(nil))) throws(Failure) -> Item {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .system(errno, "cannot trash \(path)") }
        let (trash, relativeTo) = try trashFolder(for: path, device: info.st_dev)
        // The home trash's parents ($XDG_DATA_HOME) are made too on a new account.
        for folder in [trash + "/files", trash + "/info"] where !FolderMaker.make(folder) {
            throw .system(errno, "cannot make the trash folder \(folder)")
        }
        // The info file's name is the trashed name + ".trashinfo" (and ".N" on a clash): within 255 bytes.
        let base = FileSystemBytes.prefix(of: String(path[path.index(after: path.lastIndex(of: "/")!)...]), bytes: 240)
        let recorded = relativeTo.map { String(path.dropFirst($0.count + 1)) } ?? path
        let text = "[Trash Info]\nPath=\(Self.escape(recorded))\nDeletionDate=\(Self.date(now))\n"
        for attempt in 1...1000 {
            let name = attempt == 1 ? base : "\(base).\(attempt)"
            let infoPath = "\(trash)/info/\(name).trashinfo", target = "\(trash)/files/\(name)"
            let fd = open(infoPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw .system(errno, "cannot write \(infoPath)")
            }
            let wrote = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            close(fd)
            var existing = stat()
            if wrote != text.utf8.count || lstat(target, &existing) == 0 {
                unlink(infoPath)
                if wrote != text.utf8.count { throw .system(errno, "cannot write \(infoPath)") }
                continue
            }
            guard rename(path, target) == 0 else {
                let code = errno
                unlink(infoPath)
                throw .system(code, "cannot move \(path) to the trash")
            }
            return Item(originalPath: path, trashedPath: target, infoPath: infoPath)
        }
        throw .system(EEXIST, "no free name in the trash for \(base)")
    }

    /// Puts a trashed item back; if its place is taken meanwhile, under "name (2)" beside it.
    public func restore(_ item: Item) throws(Failure) -> String {
        let destination = ConflictNames.free(item.originalPath)
        guard rename(item.trashedPath, destination) == 0 else { throw .system(errno, "cannot restore \(item.originalPath)") }
        unlink(item.infoPath)
        return destination
    }

    /// The trash for a file on `device`: the home trash when on the same volume, else the
    /// volume's own (`.Trash/$uid` if the admin made a sticky `.Trash`, else `.Trash-$uid`).
    /// Returns the folder and, for volume trashes, the top directory paths are relative to.
    func trashFolder(for path: String, device: dev_t) throws(Failure) -> (String, String?) {
        // The home trash's folder may not exist yet (a new account): its nearest existing parent tells the disk.
        var home = String(homeTrash[..<homeTrash.lastIndex(of: "/")!])
        var homeInfo = stat()
        while stat(home, &homeInfo) != 0, let slash = home.lastIndex(of: "/"), slash != home.startIndex { home = String(home[..<slash]) }
        if stat(home, &homeInfo) == 0 && homeInfo.st_dev == device { return (homeTrash, nil) }
        let top = mountPoints.filter { $0 == "/" || path.hasPrefix($0 + "/") }.max { $0.count < $1.count } ?? "/"
        let uid = getuid()
        var shared = stat()
        if lstat(top + "/.Trash", &shared) == 0, (shared.st_mode & S_IFMT) == S_IFDIR, shared.st_mode & S_ISVTX != 0 {
            return (top + "/.Trash/\(uid)", top == "/" ? "" : top)
        }
        return (top + "/.Trash-\(uid)", top == "/" ? "" : top)
    }

    /// The spec's Path: percent-encoded like a URI's path, absolute for the home trash and
    /// relative to the top directory for a volume's trash.
    static func escape(_ path: String) -> String {
        let escaped = String(FileURI.from(absolutePath: path.hasPrefix("/") ? path : "/" + path).dropFirst("file://".count))
        return path.hasPrefix("/") ? escaped : String(escaped.dropFirst())
    }

    /// Local time as YYYY-MM-DDThh:mm:ss.
    static func date(_ seconds: Int) -> String {
        var value = time_t(seconds)
        var parts = tm()
        localtime_r(&value, &parts)
        func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}

