import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// A command's standard output as `ThumbnailerProcess.capture` collects it: read from the pipe
/// while the command runs, at most `limit` bytes kept. Used on one thread only.
final class OutputCapture {
    let limit: Int
    private(set) var bytes: [UInt8] = []
    /// Whether the command printed more than `limit` bytes.
    private(set) var overflowed = false
    private var buffer = [UInt8](repeating: 0, count: 65536)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Waits up to `milliseconds` for output and reads what came; false once more than `limit`
    /// bytes were printed (the rest is not kept).
    func read(_ fd: Int32, waiting milliseconds: Int32) -> Bool {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, milliseconds) > 0 else { return true }
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count <= 0 {
            // End of output (the command closed it) while still running: wait as a plain poll would.
            if count == 0 { usleep(UInt32(milliseconds) * 1000) }
            return true
        }
        return keep(count)
    }

    /// After the command ended: what is left in the pipe, without waiting for a process it left
    /// behind that still holds the pipe open.
    func drain(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        while !overflowed {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0, keep(count) else { return }
        }
    }

    private func keep(_ count: Int) -> Bool {
        let room = limit - bytes.count
        bytes += buffer[0..<min(count, max(0, room))]
        overflowed = overflowed || count > room
        return !overflowed
    }
}
