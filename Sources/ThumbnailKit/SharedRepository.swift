import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing a shared thumbnail repository (`.sh_thumbnails/` beside the files) as a
/// place other users write to: a 1777 share, `/tmp`, an SMB share. Nothing in it is followed or
/// waited on: entries are opened beneath the file's folder through no symbolic link, non-blocking,
/// and read only when they are regular files; thumbnails are written through folder descriptors
/// (`.sh_thumbnails` and its size folder opened with `O_DIRECTORY | O_NOFOLLOW`, made with
/// `mkdirat`), into a temporary file made with `O_EXCL | O_NOFOLLOW` and renamed within the folder.
/// Only files everyone may read get a shared thumbnail, and the thumbnail is never more readable
/// than the file (the standard: a shared thumbnail must not reveal what its file does not).
enum SharedRepository {
    /// The bytes of the entry at `path` (`<folder>/.sh_thumbnails/<flavor>/<name>`); nil when it is
    /// missing, a link anywhere under the folder, not a regular file, or cannot be read.
    static func read(_ path: String, upTo limit: Int) -> [UInt8]? {
        let (sizeFolder, name) = split(path)
        let (repository, flavor) = split(sizeFolder)
        let (folder, marker) = split(repository)
        guard marker == ".sh_thumbnails" else { return nil }
        // The file's own folder is reached as the user named it; below it, no link is followed.
        guard let folderFD = openFolder(folder) else { return nil }
        defer { close(folderFD) }
        return UntrustedFile.read(beneath: folderFD, "\(marker)/\(flavor)/\(name)", upTo: limit)
    }

    /// Whether the file at `path` may have a shared thumbnail: a regular file (not a link to one:
    /// its picture belongs to another place) that everyone may read.
    static func mayPublish(_ path: String) -> Bool {
        let (folder, name) = split(path)
        guard let folderFD = openFolder(folder) else { return false }
        defer { close(folderFD) }
        return publishedMode(of: name, in: folderFD) != nil
    }

    /// Writes `png` as `<folder of file>/.sh_thumbnails/<flavor>/<name>`; false when the file may
    /// not be published or the repository cannot be written safely (nothing is written then).
    @discardableResult
    static func publish(_ png: [UInt8], forFile file: String, name: String, flavor: String) -> Bool {
        let (folder, fileName) = split(file)
        guard let folderFD = openFolder(folder) else { return false }
        defer { close(folderFD) }
        guard let mode = publishedMode(of: fileName, in: folderFD) else { return false }
        guard let sizeFolder = try? UntrustedFile.openFolder(beneath: folderFD, [".sh_thumbnails", flavor], creating: 0o755) else { return false }
        defer { if sizeFolder != folderFD { close(sizeFolder) } }
        do {
            try AtomicFileWriter.write(png, into: sizeFolder, name: name, permissions: mode)
            return true
        } catch {
            return false
        }
    }

    /// The mode a shared thumbnail of `name` gets: the file's read bits (never more readable than
    /// the file) and the owner's write bit; nil when the file is not a regular file everyone may read.
    private static func publishedMode(of name: String, in folder: Int32) -> mode_t? {
        var status = stat()
        guard name.withFileSystemRepresentation({ fstatat(folder, $0, &status, AT_SYMLINK_NOFOLLOW) }) == 0,
              FileKind(mode: status.st_mode) == .regular, status.st_mode & S_IROTH != 0 else { return nil }
        return (status.st_mode & 0o444) | S_IWUSR
    }

    private static func openFolder(_ path: String) -> Int32? {
        let fd = SystemCall.retryingInterrupts { path.withFileSystemRepresentation { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } }
        return fd >= 0 ? fd : nil
    }

    /// (folder, name) of an absolute path.
    private static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
