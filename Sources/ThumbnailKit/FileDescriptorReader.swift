#if canImport(Glibc)
import Glibc
#endif

/// Reads bounded amounts from files and pipes, looping over short reads and EINTR (a FUSE or
/// network file, or a pipe, may hand over less than asked). The read side of `FileDescriptorWriter`.
public enum FileDescriptorReader {
    /// Up to `limit` bytes (fewer at end of file), or nil on a read error (errno says why).
    public static func read(_ fd: Int32, upTo limit: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: max(0, limit))
        var done = 0
        while done < limit {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, limit - done) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { break }
            done += count
        }
        return Array(bytes[0..<done])
    }

    /// Up to `limit` bytes from the start of the file at `path`, or nil when it cannot be opened or read.
    public static func readFile(_ path: String, upTo limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return read(fd, upTo: limit)
    }
}
