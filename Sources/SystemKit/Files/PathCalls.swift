#if canImport(Glibc)
import Glibc
#endif

// The libc calls that take a path, taking the path as a `String` carried by `FileSystemBytes`.
// Swift prefers these exact-type overloads to the implicit String-to-pointer conversion of the
// Glibc originals, so every `stat(path, &info)` in a file that imports SystemKit hands the kernel
// the name's own bytes, not the UTF-8 of its drawn form (`a\xFF.txt` stays itself and never
// becomes `a\u{FFFD}.txt`, another file). `scripts/architecture.py` checks that every file calling
// one of these imports SystemKit.

/// `open(2)` of the path's own bytes.
public func open(_ path: String, _ flags: Int32) -> Int32 {
    path.withFileSystemRepresentation { Glibc.open($0, flags) }
}

/// `open(2)` of the path's own bytes, with a mode for a file it creates.
public func open(_ path: String, _ flags: Int32, _ mode: Glibc.mode_t) -> Int32 {
    path.withFileSystemRepresentation { Glibc.open($0, flags, mode) }
}

/// `openat(2)` of the name's own bytes.
public func openat(_ folder: Int32, _ path: String, _ flags: Int32) -> Int32 {
    path.withFileSystemRepresentation { Glibc.openat(folder, $0, flags) }
}

/// `openat(2)` of the name's own bytes, with a mode for a file it creates.
public func openat(_ folder: Int32, _ path: String, _ flags: Int32, _ mode: Glibc.mode_t) -> Int32 {
    path.withFileSystemRepresentation { Glibc.openat(folder, $0, flags, mode) }
}

/// `stat(2)` of the path's own bytes.
public func stat(_ path: String, _ info: UnsafeMutablePointer<Glibc.stat>) -> Int32 {
    path.withFileSystemRepresentation { PathStat.stat($0, info) }
}

/// `lstat(2)` of the path's own bytes.
public func lstat(_ path: String, _ info: UnsafeMutablePointer<Glibc.stat>) -> Int32 {
    path.withFileSystemRepresentation { Glibc.lstat($0, info) }
}

/// `fstatat(2)` of the name's own bytes.
public func fstatat(_ folder: Int32, _ path: String, _ info: UnsafeMutablePointer<Glibc.stat>, _ flags: Int32) -> Int32 {
    path.withFileSystemRepresentation { Glibc.fstatat(folder, $0, info, flags) }
}

/// `statvfs(3)` of the path's own bytes.
public func statvfs(_ path: String, _ info: UnsafeMutablePointer<Glibc.statvfs>) -> Int32 {
    path.withFileSystemRepresentation { PathStat.statvfs($0, info) }
}

/// `access(2)` of the path's own bytes.
public func access(_ path: String, _ mode: Int32) -> Int32 {
    path.withFileSystemRepresentation { Glibc.access($0, mode) }
}

/// `mkdir(2)` of the path's own bytes.
public func mkdir(_ path: String, _ mode: Glibc.mode_t) -> Int32 {
    path.withFileSystemRepresentation { Glibc.mkdir($0, mode) }
}

/// `mkdirat(2)` of the name's own bytes.
public func mkdirat(_ folder: Int32, _ path: String, _ mode: Glibc.mode_t) -> Int32 {
    path.withFileSystemRepresentation { Glibc.mkdirat(folder, $0, mode) }
}

/// `rmdir(2)` of the path's own bytes.
public func rmdir(_ path: String) -> Int32 {
    path.withFileSystemRepresentation { Glibc.rmdir($0) }
}

/// `unlink(2)` of the path's own bytes.
public func unlink(_ path: String) -> Int32 {
    path.withFileSystemRepresentation { Glibc.unlink($0) }
}

/// `unlinkat(2)` of the name's own bytes.
public func unlinkat(_ folder: Int32, _ path: String, _ flags: Int32) -> Int32 {
    path.withFileSystemRepresentation { Glibc.unlinkat(folder, $0, flags) }
}

/// `remove(3)` of the path's own bytes.
public func remove(_ path: String) -> Int32 {
    path.withFileSystemRepresentation { Glibc.remove($0) }
}

/// `rename(2)` of both paths' own bytes.
public func rename(_ source: String, _ destination: String) -> Int32 {
    source.withFileSystemRepresentation { from in destination.withFileSystemRepresentation { to in Glibc.rename(from, to) } }
}

/// `renameat(2)` of both names' own bytes.
public func renameat(_ sourceFolder: Int32, _ source: String, _ destinationFolder: Int32, _ destination: String) -> Int32 {
    source.withFileSystemRepresentation { from in
        destination.withFileSystemRepresentation { to in Glibc.renameat(sourceFolder, from, destinationFolder, to) }
    }
}

/// `link(2)` of both paths' own bytes.
public func link(_ source: String, _ destination: String) -> Int32 {
    source.withFileSystemRepresentation { from in destination.withFileSystemRepresentation { to in Glibc.link(from, to) } }
}

/// `symlink(2)`: a link at `path` (its own bytes) whose target is `target`'s own bytes.
public func symlink(_ target: String, _ path: String) -> Int32 {
    target.withFileSystemRepresentation { to in path.withFileSystemRepresentation { at in Glibc.symlink(to, at) } }
}

/// `chmod(2)` of the path's own bytes.
public func chmod(_ path: String, _ mode: Glibc.mode_t) -> Int32 {
    path.withFileSystemRepresentation { Glibc.chmod($0, mode) }
}

/// `utimensat(2)` of the name's own bytes.
public func utimensat(_ folder: Int32, _ path: String, _ times: UnsafePointer<Glibc.timespec>?, _ flags: Int32) -> Int32 {
    path.withFileSystemRepresentation { Glibc.utimensat(folder, $0, times, flags) }
}

/// `opendir(3)` of the path's own bytes.
public func opendir(_ path: String) -> OpaquePointer? {
    path.withFileSystemRepresentation { Glibc.opendir($0) }
}

/// `strdup(3)` of a path's or an argument's own bytes, for a child's argv (a file name handed to
/// another program must be the file's name).
public func strdup(_ text: String) -> UnsafeMutablePointer<CChar>? {
    text.withFileSystemRepresentation { Glibc.strdup($0) }
}

/// The target of the symbolic link at `path`, its bytes kept (nil when it is not one or cannot
/// be read).
public func readLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = path.withFileSystemRepresentation { Glibc.readlink($0, &buffer, buffer.count - 1) }
    guard count > 0 else { return nil }
    return buffer.withUnsafeBufferPointer { chars in
        chars.withMemoryRebound(to: UInt8.self) { String(fileSystemBytes: $0.prefix(count)) }
    }
}

/// The working folder's bytes (`getcwd(3)`); nil when it cannot be had (removed, too long).
public func workingFolderBytes() -> [UInt8]? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
}

/// The canonical absolute path of `path` (`realpath(3)`), its bytes kept; nil when it cannot be
/// resolved.
public func realPath(_ path: String) -> String? {
    guard let resolved = path.withFileSystemRepresentation({ Glibc.realpath($0, nil) }) else { return nil }
    defer { free(resolved) }
    return String(fileSystemRepresentation: resolved)
}

/// `posix_spawn_file_actions_addopen(3)` of the path's own bytes (the child opens it).
public func posix_spawn_file_actions_addopen(_ actions: UnsafeMutablePointer<Glibc.posix_spawn_file_actions_t>, _ fd: Int32, _ path: String,
                                             _ flags: Int32, _ mode: Glibc.mode_t) -> Int32 {
    path.withFileSystemRepresentation { Glibc.posix_spawn_file_actions_addopen(actions, fd, $0, flags, mode) }
}
