#if canImport(Glibc)
import Glibc
#endif

/// Asks the terminal what it can do, before the screen is taken over: the primary device
/// attributes (attribute 4 means sixel) and the size of a cell in pixels. Short timeouts: a
/// terminal that does not answer costs at most `timeoutMilliseconds`.
public enum TerminalProbe {
    /// The terminal's cell size in pixels (from TIOCGWINSZ; a common default when it does not say).
    public static func cellSize(fd: Int32 = 1) -> (width: Int, height: Int) {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_xpixel > 0, size.ws_ypixel > 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_xpixel) / Int(size.ws_col), Int(size.ws_ypixel) / Int(size.ws_row))
        }
        return (10, 20)
    }

    /// Sends `ESC [ c` to the terminal and reads the answer; nil when there is none in time.
    public static func deviceAttributes(timeoutMilliseconds: Int32 = 150) -> [Int]? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(fd, TCSANOW, &raw)
        defer { tcsetattr(fd, TCSANOW, &saved) }
        let query: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "c")]
        guard write(fd, query, query.count) == query.count else { return nil }
        var reply: [UInt8] = []
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while reply.count < 256, poll(&poller, 1, timeoutMilliseconds) > 0 {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            reply += buffer[0..<count]
            if reply.contains(UInt8(ascii: "c")) { break }
        }
        return GraphicsMode.parseDeviceAttributes(reply)
    }
}
