import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Copies one regular file so that the destination never holds a partial file under its final
/// name: the bytes go to a hidden temporary in the destination folder (same volume, so the last
/// step is an atomic rename), through `copy_file_range` (reflinks and server-side copies where
/// the filesystem can), with mode, times and extended attributes carried over.
public enum FileCopier {
    /// Why a copy stopped: `.cancelled`, `.sizeMismatch`, or a system call's errno and what was being done.
    public typealias Failure = FileSystemError

    /// Checks between chunks: cancel, pause, progress.
    public struct Control: Sendable {
        public let isCancelled: @Sendable () -> Bool
        /// Blocks while the user has the job paused.
        public let waitWhilePaused: @Sendable () -> Void
        /// Bytes copied since the last call.
        public let progress: @Sendable (Int64) -> Void

        public init(isCancelled: @escaping @Sendable () -> Bool, waitWhilePaused: @escaping @Sendable () -> Void = {}, progress: @escaping @Sendable (Int64) -> Void = { _ in }) {
            self.isCancelled = isCancelled
            self.waitWhilePaused = waitWhilePaused
            self.progress = progress
        }
    }

    /// The hidden temporary name a copy of `name` is written under, in the destination folder:
    /// `.NAME.qlbrowse-PID-RANDOM.part`. The copy holds an `flock` on it for its whole life, so a
    /// temporary nobody holds is a leftover of a run that was killed (see `removeLeftovers(in:)`).
    public static func temporaryName(for name: String) -> String {
        // Within the 255 bytes of a name, however long `name` is.
        ".\(FileSystemBytes.prefix(of: name, bytes: 200)).qlbrowse-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).part"
    }

    /// What a source was when its copy began: identity, size, and the modification and change
    /// times to the nanosecond. A source that is not the same afterwards changed while it was
    /// copied, and a move then keeps it (the copy would lack the change).
    public struct SourceState: Sendable, Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: timespec
        let changed: timespec

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = status.st_mtim
            changed = status.st_ctim
        }

        /// What is at `path` now (not following a last link), nil when nothing is.
        static func of(path: String) -> SourceState? {
            var status = stat()
            return path.withFileSystemRepresentation { lstat($0, &status) } == 0 ? SourceState(status) : nil
        }

        /// What the open file is now.
        static func of(descriptor: Int32) -> SourceState? {
            var status = stat()
            return fstat(descriptor, &status) == 0 ? SourceState(status) : nil
        }

        public static func == (a: SourceState, b: SourceState) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    /// Whether `name` is one of our copies' temporaries (`.NAME.qlbrowse-PID-RANDOM.part`); the PID when it is.
    static func temporaryOwner(_ name: String) -> Int32? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].isEmpty, parts[parts.count - 1] == "part" else { return nil }
        let numbers = parts[parts.count - 2].split(separator: "-", omittingEmptySubsequences: false)
        guard numbers.count == 3, numbers[0] == "qlbrowse", let pid = Int32(numbers[1]), pid > 0, UInt32(numbers[2]) != nil else { return nil }
        return pid
    }

    /// Removes the temporaries that earlier copies into `folder` left behind when they were killed
    /// (a crash, SIGKILL, a power cut): ours by their name, regular files, and held by nobody (a
    /// running copy holds an `flock` on its own). One whose process still runs is left unless it
    /// is over an hour old (the number may belong to another process by now); a brand-new one
    /// may not be locked yet, and is left. Returns the names removed.
    @discardableResult
    public static func removeLeftovers(in folder: String) -> [String] {
        var removed: [String] = []
        for entry in DirectoryEntries.list(folder) {
            guard let pid = temporaryOwner(entry.name) else { continue }
            let path = (folder.hasSuffix("/") ? folder : folder + "/") + entry.name
            let descriptor = path.withFileSystemRepresentation { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else { continue }
            let running = kill(pid, 0) == 0 || errno == EPERM
            let age = time(nil) - status.st_mtim.tv_sec
            if running && age < 3600 { continue }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            if path.withFileSystemRepresentation({ unlink($0) }) == 0 { removed.append(entry.name) }
        }
        return removed
    }

    /// Copies `source` to `destination` (which must not be written by anyone else meanwhile).
    /// `replace`: an existing destination is replaced atomically; otherwise the rename refuses
    /// to overwrite. `durable`: fsync before the rename (a move deletes the source afterwards).
    /// On any failure the temporary is removed; if even that fails (the volume is gone) its path
    /// is in `leftover`. A source that changed while it was copied (size, modification or change
    /// time) fails with `.sourceChanged`, and the copy is not put in place. Returns the source's
    /// state as copied, for a move to check again right before it removes the original.
    @discardableResult
    public static func copy(_ source: String, to destination: String, replace: Bool, durable: Bool, verify: Bool = false, control: Control,
                            leftover: inout String?) throws(Failure) -> SourceState {
        // Non-blocking and checked to be a regular file before a byte is read: a FIFO put in a
        // shared folder (or in place of a file between the listing and now) cannot hold the job.
        let input: Int32
        do throws(UntrustedFile.Failure) {
            input = try UntrustedFile.openRegular(source, links: .followed)
        } catch {
            if case .refused(let kind) = error { throw .system(0, "\(kind.refusal), not copied", path: source) }
            throw .system(error.errno, "cannot open \(source)")
        }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw .system(errno, "cannot read \(source)") }
        let folder = String(destination[..<(destination.lastIndex(of: "/") ?? destination.startIndex)])
        let name = String(destination[destination.index(after: destination.lastIndex(of: "/") ?? destination.startIndex)...])
        let temporary = (folder.isEmpty ? "" : folder) + "/" + temporaryName(for: name)
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw .system(errno, "cannot create a file in \(folder)") }
        // Held while the temporary lives: the next copy into this folder tells a killed run's leftover by its free lock.
        _ = flock(output, LOCK_EX | LOCK_NB)
        let before = SourceState(info)
        var closed = false
        func discard() {
            if !closed { close(output); closed = true }
            if unlink(temporary) != 0 && errno != ENOENT { leftover = temporary }
        }
        do throws(Failure) {
            let written = try pump(from: input, to: output, size: Int64(info.st_size), control: control)
            // Every byte the source had when the copy began went out through a call that said so.
            guard written == Int64(info.st_size) else { throw .sizeMismatch(expected: Int64(info.st_size), found: written) }
            if verify {
                do throws(Failure) {
                    try compareContent(input, temporary, control: control)
                } catch where error.code == .contentDiffers && SourceState.of(descriptor: input) != before {
                    throw .sourceChanged(source)
                }
            }
            // A same-size rewrite leaves no trace in the byte count: the times and size tell.
            guard SourceState.of(descriptor: input) == before else { throw .sourceChanged(source) }
            carryMetadata(from: input, to: output, info: info)
            if durable && fsync(output) != 0 { throw .system(errno, "cannot flush the copy to disk") }
            closed = true
            guard close(output) == 0 else { throw .system(errno, "cannot finish the copy") }
            if control.isCancelled() { throw .cancelled }
            try place(temporary, at: destination, replace: replace)
        } catch {
            discard()
            throw error
        }
        return before
    }

    /// Reads the source and the copy back and compares them byte for byte (the user asked for it:
    /// `verify_copies`, `--verify`; stronger than comparing hashes), so a copy the target mangled
    /// is never put in place. Every few megabytes it answers cancel and pause and reports a
    /// progress of no bytes: reading a big file back from a slow stick takes minutes, and the
    /// volume's deadline must not take that for a hang.
    static func compareContent(_ input: Int32, _ temporary: String, control: Control = Control(isCancelled: { false })) throws(Failure) {
        let copy = open(temporary, O_RDONLY | O_CLOEXEC)
        guard copy >= 0 else { throw .system(errno, "cannot read the copy back") }
        defer { close(copy) }
        var original = [UInt8](repeating: 0, count: 1 << 20), copied = original
        var offset: off_t = 0
        while true {
            if offset % (8 << 20) == 0 {
                if control.isCancelled() { throw .cancelled }
                control.waitWhilePaused()
                control.progress(0)
            }
            let a = original.withUnsafeMutableBytes { pread(input, $0.baseAddress!, $0.count, offset) }
            let b = copied.withUnsafeMutableBytes { pread(copy, $0.baseAddress!, $0.count, offset) }
            guard a >= 0, b >= 0 else { throw .system(errno, "cannot read back for the check") }
            guard a == b, original[0..<a] == copied[0..<b] else { throw .contentDiffers }
            if a == 0 { return }
            offset += off_t(a)
        }
    }

    /// Moves the finished temporary into place, atomically.
    static func place(_ temporary: String, at destination: String, replace: Bool) throws(Failure) {
        if replace {
            guard rename(temporary, destination) == 0 else { throw .system(errno, "cannot put the copy in place") }
            return
        }
        // RENAME_NOREPLACE: a file that appeared meanwhile is never overwritten.
        do {
            try FileRename.noReplace(temporary, to: destination)
            return
        } catch where !FileRename.isUnsupported(error) {
            throw .system(error.errno, "cannot put the copy in place", path: destination, call: error.call)
        } catch {}
        // Filesystems without RENAME_NOREPLACE (some FUSE ones): link and unlink, which also refuses to overwrite.
        if link(temporary, destination) == 0 {
            unlink(temporary)
            return
        }
        var existing = stat()
        if lstat(destination, &existing) == 0 { throw .system(EEXIST, "cannot put the copy in place") }
        guard rename(temporary, destination) == 0 else { throw .system(errno, "cannot put the copy in place") }
    }

    /// The bytes: copy_file_range where the kernel can, read/write where it cannot.
    /// Returns the number of bytes written.
    private static func pump(from input: Int32, to output: Int32, size: Int64, control: Control) throws(Failure) -> Int64 {
        var remaining = size
        var useRange = true
        var buffer: [UInt8] = []
        var chunk = 8 << 20
        while true {
            if control.isCancelled() { throw .cancelled }
            control.waitWhilePaused()
            if useRange {
                // The size found when the copy began is copied (and checked afterwards); no extra call to find the end.
                if remaining <= 0 { break }
                let started = SystemTime.now()
                let copied = FileCopyRange.copy(from: input, to: output, length: Int(min(Int64(chunk), max(remaining, 1))))
                if copied > 0 {
                    remaining -= Int64(copied)
                    control.progress(Int64(copied))
                    chunk = nextChunk(after: copied, took: SystemTime.now() - started)
                    continue
                }
                if copied == 0 { break }
                let code = errno
                if [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP, EBADF].contains(code) {
                    useRange = false
                    buffer = [UInt8](repeating: 0, count: 1 << 20)
                    continue
                }
                throw .system(code, "copying failed")
            }
            let count = try SystemCall.run("read", context: "reading failed") { buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) } }
            if count == 0 { break }
            var done = 0
            while done < count {
                done += try SystemCall.run("write", context: "writing failed") { buffer.withUnsafeBytes { write(output, $0.baseAddress! + done, count - done) } }
            }
            remaining -= Int64(count)
            control.progress(Int64(count))
        }
        return size - remaining
    }

    /// The length of the next `copy_file_range` call: what the last call's rate moves in about
    /// 0.1 s, at most four times the last and within 1 MB to 1 GB. Calls grow where they are
    /// quick (a local disk copies a gigabyte in one) and shrink as soon as one is slow (a busy
    /// disk, a share), so cancel, pause and the volume's deadline are answered between calls. A
    /// length that only ever grew could ask for the rest of a big file in one call, however slow
    /// the disk had become.
    static func nextChunk(after bytes: Int, took nanoseconds: Int64) -> Int {
        let rate = Double(bytes) / (Double(max(nanoseconds, 1_000_000)) / 1e9)
        return max(1 << 20, Int(min(rate * 0.1, Double(bytes) * 4, Double(1 << 30))))
    }

    /// Mode, access and modification times, and extended attributes where the target takes them.
    static func carryMetadata(from input: Int32, to output: Int32, info: stat) {
        fchmod(output, info.st_mode & 0o7777)
        var times = [info.st_atim, info.st_mtim]
        futimens(output, &times)
        ExtendedAttributes.copy(from: input, to: output)  // ENOTSUP on FAT: nothing to carry
    }
}
