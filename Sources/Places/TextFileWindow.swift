import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Reads a text file a window of lines at a time, however large it is: only what is asked for is
/// read, and a sparse index of line starts (one every `stride` lines) grows as far as reading
/// went, so scrolling on is cheap and jumping back is a seek. A 2 GB log opens at once; only the
/// end (`G`) needs the whole file scanned, once. Quick Look's text on any place: `LocalPlace` reads
/// through one, and a remote place's lines are read by one on the remote (`Place.textLines`).
public final class TextFileWindow: Sendable {
    /// Lines of the file from `first`, their bytes (cut at `maxLineBytes`), and the file's line
    /// count once the scan has reached its end.
    public struct Lines: Sendable, Equatable {
        public let first: Int
        public let lines: [[UInt8]]
        public let total: Int?

        public init(first: Int, lines: [[UInt8]], total: Int?) {
            self.first = first
            self.lines = lines
            self.total = total
        }
    }

    /// The file could not be read (the system's reason), or is not a regular file (what it is:
    /// "is a FIFO", "is a device").
    public enum Failure: Error, Equatable { case unreadable(String), refused(String) }

    public static let stride = 1024
    public static let maxLineBytes = 2048
    private static let chunk = 256 * 1024
    private static let readLimit: Int64 = 16 << 20

    public let path: String
    private struct Index {
        /// Byte offset of line k × stride.
        var checkpoints: [Int64] = [0]
        /// Lines counted and the offset just after the last counted newline.
        var lines = 0
        var offset: Int64 = 0
        var reachedEnd = false
    }
    private let index = Mutex(Index())

    public init(path: String) { self.path = path }

    /// `count` lines from line `first`; a `first` past the end gives the last `count` lines.
    public func lines(from first: Int, count: Int) throws(Failure) -> Lines {
        // Non-blocking and checked to be a regular file before a byte is read: a FIFO (planted
        // in a shared folder) or a device is refused at once, never waited on by a thread that
        // would leave the whole volume "not responding" until someone writes to it.
        let fd: Int32
        do {
            fd = try UntrustedFile.openRegular(path, links: .followed)
        } catch {
            if case .refused = error { throw .refused(error.reason) }
            throw .unreadable(error.reason)
        }
        defer { close(fd) }
        return try index.withLock { index throws(Failure) -> Lines in
            // Only the start of the window's stride must be known; the window itself is read on from there.
            try scan(fd, &index, until: first >= index.lines && !index.reachedEnd ? first / Self.stride * Self.stride : 0)
            var start = first
            if index.reachedEnd, start + count > index.lines { start = max(0, index.lines - count) }
            let checkpoint = min(start / Self.stride, index.checkpoints.count - 1)
            let collected = try collect(fd, from: index.checkpoints[checkpoint], skipping: start - checkpoint * Self.stride, count: count)
            let total = index.reachedEnd ? index.lines : collected.reachedEnd ? checkpoint * Self.stride + collected.skipped + collected.lines.count : nil
            return Lines(first: start, lines: collected.lines, total: total)
        }
    }

    /// Counts lines on from where the index ends until `line` lines are known or the file ends.
    private func scan(_ fd: Int32, _ index: inout Index, until line: Int) throws(Failure) {
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        // Reading starts after the last counted newline: a partly read line is read again whole.
        var readOffset = index.offset
        while !index.reachedEnd && index.lines < line {
            let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Self.chunk, off_t(readOffset)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if got == 0 {
                index.reachedEnd = true
                if readOffset > index.offset { index.lines += 1 }  // a last line without a newline
                break
            }
            buffer.withUnsafeBytes { bytes in
                let base = bytes.baseAddress!
                var position = 0
                while position < got, let found = memchr(base + position, 0x0A, got - position) {
                    position = base.distance(to: UnsafeRawPointer(found)) + 1
                    index.lines += 1
                    index.offset = readOffset + Int64(position)
                    if index.lines % Self.stride == 0 { index.checkpoints.append(index.offset) }
                }
            }
            readOffset += Int64(got)
        }
    }

    /// Reads lines from `offset`: `skipping` lines first, then `count` lines (each cut at
    /// `maxLineBytes`), reading at most `readLimit` bytes (a file of one endless line shows its start).
    private func collect(_ fd: Int32, from offset: Int64, skipping: Int, count: Int) throws(Failure)
        -> (lines: [[UInt8]], skipped: Int, reachedEnd: Bool) {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var toSkip = skipping
        var position = offset
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        var reachedEnd = false
        while lines.count < count && position - offset < Self.readLimit {
            let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Self.chunk, off_t(position)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if got == 0 {
                reachedEnd = true
                break
            }
            position += Int64(got)
            for byte in buffer[0..<got] {
                if byte == 0x0A {
                    if toSkip > 0 { toSkip -= 1 } else { lines.append(current) }
                    current.removeAll(keepingCapacity: true)
                    if lines.count == count { break }
                } else if toSkip == 0 && current.count < Self.maxLineBytes {
                    current.append(byte)
                }
            }
        }
        if lines.count < count && toSkip == 0 && !current.isEmpty { lines.append(current) }
        return (lines, skipping - toSkip, reachedEnd)
    }
}
