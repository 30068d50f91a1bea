#if canImport(Glibc)
import Glibc
#endif

/// Writes a whole buffer to a file descriptor: retries on EINTR and short writes, stops on any
/// other error. The one loop every pipe, file, socket and terminal write in the program goes through.
public enum FileDescriptorWriter {
    /// One write of `count` bytes from `start`: the bytes written, or negative with `errno` set.
    public typealias WriteCall = (_ fd: Int32, _ start: UnsafeRawPointer, _ count: Int) -> Int

    /// True when every byte was written. `call` is write(2) unless a socket wants send(2).
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to fd: Int32, call: WriteCall = { Glibc.write($0, $1, $2) }) -> Bool {
        let total = bytes.count
        var done = 0
        while done < total {
            let result = SystemCall.retryingInterrupts { bytes.withUnsafeBytes { call(fd, $0.baseAddress! + done, total - done) } }
            if result <= 0 { return false }
            done += result
        }
        return true
    }
}
