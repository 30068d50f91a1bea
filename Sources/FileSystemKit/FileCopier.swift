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

    /// The hidden temporary name a copy of `name` is written under, in the destination folder.
    public static func temporaryName(for name: String) -> String {
        // Within the 255 bytes of a name, however long `name` is.
        ".\(FileSystemBytes.prefix(of: name, bytes: 200)).qlbrowse-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).part"
    }

    /// Copies `source` to `destination` (which must not be written by anyone else meanwhile).
    /// `replace`: an existing destination is replaced atomically; otherwise the rename refuses
    /// to overwrite. `durable`: fsync before the rename (a move deletes the source afterwards).
    /// On any failure the temporary is removed; if even that fails (the volume is gone) its path
    /// is in `leftover`.
    public static func copy(_ source: String, to destination: String, replace: Bool, durable: Bool, verify: Bool = false, control: Control,
                            leftover: inout String?) throws(Failure) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .system(errno, "cannot open \(source)") }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw .system(errno, "cannot read \(source)") }
        let folder = String(destination[..<(destination.lastIndex(of: "/") ?? destination.startIndex)])
        let name = String(destination[destination.index(after: destination.lastIndex(of: "/") ?? destination.startIndex)...])
        let temporary = (folder.isEmpty ? "" : folder) + "/" + temporaryName(for: name)
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw .system(errno, "cannot create a file in \(folder)") }
        var closed = false
        func discard() {
            if !closed { close(output); closed = true }
            if unlink(temporary) != 0 && errno != ENOENT { leftover = temporary }
        }
        do throws(Failure) {
            let written = try pump(from: input, to: output, size: Int64(info.st_size), control: control)
            // Every byte the source had when the copy began went out through a call that said so.
            guard written == Int64(info.st_size) else { throw .sizeMismatch(expected: Int64(info.st_size), found: written) }
            if verify { try compareContent(input, temporary) }
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
    }

    /// Reads the source and the copy back and compares them byte for byte (the user asked for it:
    /// `verify_copies`, `--verify`; stronger than comparing hashes), so a copy the target mangled
    /// is never put in place.
    static func compareContent(_ input: Int32, _ temporary: String) throws(Failure) {
        let copy = open(temporary, O_RDONLY | O_CLOEXEC)
        guard copy >= 0 else { throw .system(errno, "cannot read the copy back") }
        defer { close(copy) }
        var original = [UInt8](repeating: 0, count: 1 << 20), copied = original
        var offset: off_t = 0
        while true {
            let a = original.withUnsafeMutableBytes { pread(input, $0.baseAddress!, $0.count, offset) }
            let b = copied.withUnsafeMutableBytes { pread(copy, $0.baseAddress!, $0.count, offset) }
            guard a >= 0, b >= 0 else { throw .system(errno, "cannot read back for the check") }
            guard a == b, original[0..<a] == copied[0..<b] else { throw .system(EIO, "the copy's content differs from the original") }
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
        // Calls grow while they are quick (a local disk copies a gigabyte in one) and stay small
        // where they are slow (a share), so cancel and pause are answered within about 0.1 s.
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
                    if SystemTime.now() - started < 50_000_000 && chunk < 1 << 30 { chunk *= 4 }
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

    /// Mode, access and modification times, and extended attributes where the target takes them.
    static func carryMetadata(from input: Int32, to output: Int32, info: stat) {
        fchmod(output, info.st_mode & 0o7777)
        var times = [info.st_atim, info.st_mtim]
        futimens(output, &times)
        ExtendedAttributes.copy(from: input, to: output)  // ENOTSUP on FAT: nothing to carry
    }
}
