import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Watches one folder with inotify and reports what changed in it: a name made, removed, renamed
/// or written (the name's own bytes), or the folder itself gone (removed, moved away, its volume
/// unmounted). Runs on a thread of its own that wakes five times a second to see whether it was
/// stopped; `stop()` ends it and closes the descriptor.
public final class FolderWatch: Sendable {
    /// One change in the watched folder.
    public enum Change: Sendable, Equatable {
        /// Something happened to the entry named (made, removed, renamed, written, its attributes).
        case changed(name: [UInt8])
        /// The folder itself was removed, moved away or unmounted: no more changes will come.
        case gone
    }

    /// Shared with the watching thread, which must not keep the watch itself alive.
    private final class Flag: Sendable {
        let stopped = Atomic<Bool>(false)
    }

    private let flag = Flag()

    /// Starts watching `folder`; `deliver` hears each change on the watching thread (after
    /// `.gone`, nothing more). Throws when the folder cannot be watched (missing, not a folder,
    /// the inotify limits reached).
    public init(_ folder: String, deliver: @escaping @Sendable (Change) -> Void) throws(FileSystemError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw .system(errno, "cannot watch folders", call: "inotify_init1") }
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        let watch = folder.withFileSystemRepresentation { inotify_add_watch(fd, $0, mask) }
        guard watch >= 0 else {
            let code = errno
            close(fd)
            throw .system(code, "cannot watch the folder", path: folder, call: "inotify_add_watch")
        }
        let flag = self.flag
        let started = DetachedThread.start(stackSize: 256 * 1024) {
            Self.run(fd, flag: flag, deliver: deliver)
            close(fd)
        }
        guard started else {
            close(fd)
            throw .system(errno, "cannot start a thread", call: "pthread_create")
        }
    }

    /// Ends the watch (within a fifth of a second); nothing is delivered after it returns but
    /// what was already being delivered.
    public func stop() { flag.stopped.store(true, ordering: .relaxed) }

    deinit { stop() }

    private static func run(_ fd: Int32, flag: Flag, deliver: @Sendable (Change) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while !flag.stopped.load(ordering: .relaxed) {
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 200) > 0 else { continue }
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard got > 0 else {
                if got < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                deliver(.gone)
                return
            }
            for change in changes(in: buffer[..<got]) {
                if flag.stopped.load(ordering: .relaxed) { return }
                deliver(change)
                if change == .gone { return }
            }
        }
    }

    /// The changes in a buffer of `inotify_event`s (a header of 16 bytes, then a name padded with NULs).
    static func changes(in bytes: ArraySlice<UInt8>) -> [Change] {
        var found: [Change] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let event = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: inotify_event.self) }
            let nameStart = offset + header, nameEnd = min(nameStart + Int(event.len), bytes.endIndex)
            let name = Array(bytes[nameStart..<nameEnd].prefix { $0 != 0 })
            if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED) != 0 {
                found.append(.gone)
                return found
            }
            if !name.isEmpty || event.mask & UInt32(IN_Q_OVERFLOW) != 0 { found.append(.changed(name: name)) }
            offset = nameEnd
        }
        return found
    }
}
