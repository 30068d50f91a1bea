import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Random-access reads from a file, bounded: the only way providers written in Swift (and
/// `EmbeddedThumbnail`, in the asking process) read content.
public final class FileBytes {
    private let fd: Int32
    public let size: Int

    public init(path: String) throws(ThumbnailError) {
        // Non-blocking and checked to be a regular file: a FIFO swapped in after the worker's own
        // check is refused, not waited on.
        do {
            fd = try UntrustedFile.openRegular(path, links: .followed)
        } catch {
            if case .refused = error { throw ThumbnailError(.unsupported, "\(path): \(error.reason)") }
            throw ThumbnailError(.unreadable, "\(path): \(error.reason)")
        }
        var status = stat()
        fstat(fd, &status)
        size = Int(status.st_size)
    }

    deinit { close(fd) }

    /// Up to `count` bytes from `offset` (fewer at the end of the file, empty past it).
    public func read(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0, offset < size else { return [] }
        let wanted = min(count, size - offset)
        var buffer = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let result = SystemCall.retryingInterrupts { buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, wanted - done, off_t(offset + done)) } }
            if result <= 0 { break }
            done += result
        }
        return done == wanted ? buffer : Array(buffer[0..<done])
    }

    public func readAll(limit: Int) -> [UInt8] { read(at: 0, count: min(size, limit)) }
}
