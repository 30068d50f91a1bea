#if canImport(Glibc)
import Glibc
#endif

/// Reads bounded amounts from files and pipes, looping over short reads and EINTR (a FUSE or
/// network file, or a pipe, may hand over less than asked). The read side of `FileDescriptorWriter`.
public enum FileDescriptorReader {
    /// Up to `limit` bytes (fewer at end of file), or nil on a read error (errno says why).
    /// Memory grows with what arrives, not with `limit`: a 64 MiB limit on a 3 KiB file costs 3 KiB.
    public static func read(_ fd: Int32, upTo limit: Int, expected: Int = 64 << 10) -> [UInt8]? {
        var bytes = [UInt8]()
        var done = 0
        var capacity = min(max(0, limit), max(4096, expected))
        while done < limit {
            if done == capacity {
                capacity = min(limit, capacity * 2)
            }
            if bytes.count < capacity {
                bytes.append(contentsOf: repeatElement(0, count: capacity - bytes.count))
            }
            let count = SystemCall.retryingInterrupts { bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, capacity - done) } }
            if count < 0 { return nil }
            if count == 0 { break }
            done += count
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    /// Up to `limit` bytes of the regular file at `path`; nil when it is anything else (a FIFO
    /// planted where a state file should be would block the open, a device would never end),
    /// or cannot be opened or read. Opened without blocking, as Foundation's `Data(contentsOf:)` does.
    public static func readRegularFile(_ path: String, upTo limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return read(fd, upTo: limit, expected: Int(info.st_size) + 1)
    }

    /// Up to `limit` bytes from the start of the file at `path`, or nil when it cannot be opened or read.
    public static func readFile(_ path: String, upTo limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        // One more byte than the size, so that the read that finds the end needs no new buffer.
        let expected = fstat(fd, &info) == 0 && info.st_size > 0 ? Int(info.st_size) + 1 : 64 << 10
        return read(fd, upTo: limit, expected: expected)
    }
}
