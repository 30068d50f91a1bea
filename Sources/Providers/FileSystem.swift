import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The few file-system calls the external-thumbnailer code needs, without Foundation:
/// listing a folder, finding a program on `PATH`, and a private temporary folder that is
/// removed with whatever a thumbnailer left in it.
enum FileSystem {
    /// The names in a folder (without `.` and `..`), sorted; empty when it cannot be read.
    static func entries(of directory: String) -> [String] {
        DirectoryEntries.list(directory).map(\.name).sorted()
    }

    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// A new folder only this user can enter (mode 0700, `mkdtemp`), in `$TMPDIR` or `/tmp`.
    static func makeTemporaryDirectory(prefix: String) -> String? {
        let base = ProcessEnvironment.variable("TMPDIR").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = ((base.hasSuffix("/") ? base : base + "/") + prefix + "XXXXXX").fileSystemBytes.map { CChar(bitPattern: $0) } + [0]
        guard let made = mkdtemp(&template) else { return nil }
        return String(fileSystemRepresentation: made)
    }

    /// Deletes a folder and everything under it, never following symbolic links out of it.
    static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            for name in entries(of: path) { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
