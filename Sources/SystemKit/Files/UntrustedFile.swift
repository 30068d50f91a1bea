import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Opens files that someone else may have put there (a 1777 share, `/tmp`, an SMB share, a shared
/// thumbnail repository) so that nothing planted can block, redirect or feed the reader: opened
/// non-blocking (a FIFO with no writer cannot hold the call), checked with `fstat` to be a regular
/// file before a byte is read (a FIFO, a device, a socket or a folder is refused at once, named in
/// the refusal), then made blocking again for ordinary reads. The last component is not followed
/// when it is a symbolic link unless the caller says so (the file a user named themselves), and
/// paths inside a folder descriptor are resolved beneath it through no link at all (`openat2` with
/// `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`, or a walk with `O_NOFOLLOW` where the kernel lacks it).
public enum UntrustedFile {
    /// Whether a symbolic link as the last component is followed (a file the user named, as they
    /// named it) or refused (anything found in a place others can write).
    public enum Links: Sendable, Equatable { case followed, refused }

    /// Why a file was not opened: it is not a regular file (`refused`, with what it is), or the
    /// open failed (`failed`, with the errno).
    public enum Failure: Error, Sendable, Equatable {
        case refused(FileKind)
        case failed(Int32)

        /// "is a FIFO", or the system's reason ("No such file or directory").
        public var reason: String {
            switch self {
            case .refused(let kind): return kind.refusal
            case .failed(let code): return String(cString: strerror(code))
            }
        }

        /// The errno a caller that speaks errnos reports (ELOOP for a link, EINVAL for the rest).
        public var errno: Int32 {
            switch self {
            case .refused(.symbolicLink): return ELOOP
            case .refused(.folder): return EISDIR
            case .refused: return EINVAL
            case .failed(let code): return code
            }
        }
    }

    /// Whether `openat2` is tried (tests turn it off to exercise the walk kernels before 5.6 take).
    public static let usesOpenat2 = Atomic<Bool>(true)

    private static let readFlags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK

    /// A descriptor for reading the regular file at `path` (relative to `folder`, the working
    /// folder by default); the caller closes it.
    public static func openRegular(_ path: String, in folder: Int32 = AT_FDCWD, links: Links = .refused) throws(Failure) -> Int32 {
        let flags = readFlags | (links == .refused ? O_NOFOLLOW : 0)
        let fd = SystemCall.retryingInterrupts { path.withFileSystemRepresentation { openat(folder, $0, flags) } }
        guard fd >= 0 else { throw failure(errno, path: path, in: folder, following: links == .followed) }
        return try checked(fd)
    }

    /// A descriptor for reading the regular file at `relativePath` beneath the folder `folder`,
    /// reached through no symbolic link and no `..` out of it.
    public static func openRegular(beneath folder: Int32, _ relativePath: String) throws(Failure) -> Int32 {
        if usesOpenat2.load(ordering: .relaxed) {
            let fd = SystemCall.retryingInterrupts { relativePath.withFileSystemRepresentation { BeneathOpen.open(folder, $0, readFlags) } }
            if fd >= 0 { return try checked(fd) }
            // ENOSYS: a kernel before 5.6; EPERM: a seccomp filter that does not know the call.
            if errno != ENOSYS && errno != EPERM { throw failure(errno, path: relativePath, in: folder) }
        }
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let last = parts.last, !parts.contains(".."), !relativePath.hasPrefix("/") else { throw .failed(EXDEV) }
        let parent = try openFolder(beneath: folder, parts.dropLast())
        defer { if parent != folder { close(parent) } }
        return try openRegular(last, in: parent, links: .refused)
    }

    /// A descriptor of the folder reached from `folder` through `names`, one component at a time,
    /// none of them a symbolic link (`folder` itself when `names` is empty: not to be closed then).
    /// `creating` makes missing ones with that mode.
    public static func openFolder(beneath folder: Int32, _ names: some Collection<String>, creating mode: mode_t? = nil) throws(Failure) -> Int32 {
        var current = folder
        for name in names {
            guard name != "..", name != "." else {
                if current != folder { close(current) }
                throw .failed(EXDEV)
            }
            do {
                let next = try openFolder(name, in: current, creating: mode)
                if current != folder { close(current) }
                current = next
            } catch {
                if current != folder { close(current) }
                throw error
            }
        }
        return current
    }

    /// The folder `name` in `folder`, not through a symbolic link; made with `mode` when missing
    /// and `creating` is given.
    public static func openFolder(_ name: String, in folder: Int32, creating mode: mode_t? = nil) throws(Failure) -> Int32 {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var fd = SystemCall.retryingInterrupts { name.withFileSystemRepresentation { openat(folder, $0, flags) } }
        if fd < 0, errno == ENOENT, let mode {
            let made = name.withFileSystemRepresentation { mkdirat(folder, $0, mode) }
            guard made == 0 || errno == EEXIST else { throw .failed(errno) }
            fd = SystemCall.retryingInterrupts { name.withFileSystemRepresentation { openat(folder, $0, flags) } }
        }
        guard fd >= 0 else { throw failure(errno, path: name, in: folder) }
        return fd
    }

    /// Up to `limit` bytes of the regular file at `path`; nil when it cannot be opened, is not a
    /// regular file, or cannot be read.
    public static func read(_ path: String, links: Links = .refused, upTo limit: Int) -> [UInt8]? {
        guard let fd = try? openRegular(path, links: links) else { return nil }
        defer { close(fd) }
        return readOpened(fd, upTo: limit)
    }

    /// Up to `limit` bytes of the regular file at `relativePath` beneath `folder` (no links).
    public static func read(beneath folder: Int32, _ relativePath: String, upTo limit: Int) -> [UInt8]? {
        guard let fd = try? openRegular(beneath: folder, relativePath) else { return nil }
        defer { close(fd) }
        return readOpened(fd, upTo: limit)
    }

    /// What `fd` (opened non-blocking) is: the same descriptor made blocking when it is a regular
    /// file; closed and refused otherwise.
    private static func checked(_ fd: Int32) throws(Failure) -> Int32 {
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            throw .failed(code)
        }
        let kind = FileKind(mode: status.st_mode)
        guard kind == .regular else {
            close(fd)
            throw .refused(kind)
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }

    /// An open's errno as a failure: ELOOP under O_NOFOLLOW (or RESOLVE_NO_SYMLINKS) is a link,
    /// ENXIO a socket (or a device without its driver): named by what the entry is.
    private static func failure(_ code: Int32, path: String, in folder: Int32, following: Bool = false) -> Failure {
        guard code == ELOOP || code == ENXIO || code == ENOTDIR else { return .failed(code) }
        var status = stat()
        let found = path.withFileSystemRepresentation { fstatat(folder, $0, &status, following ? 0 : AT_SYMLINK_NOFOLLOW) } == 0
        if found && FileKind(mode: status.st_mode) != .regular && FileKind(mode: status.st_mode) != .folder {
            return .refused(FileKind(mode: status.st_mode))
        }
        return code == ELOOP ? .refused(.symbolicLink) : .failed(code)
    }

    private static func readOpened(_ fd: Int32, upTo limit: Int) -> [UInt8]? {
        var info = stat()
        let expected = fstat(fd, &info) == 0 && info.st_size > 0 ? Int(info.st_size) + 1 : 64 << 10
        return FileDescriptorReader.read(fd, upTo: limit, expected: expected)
    }
}
