#if canImport(Glibc)
import Glibc
#endif

/// Writes a whole buffer to a file descriptor: retries on EINTR and short writes, stops on any
/// other error. The one loop every pipe, file and terminal write in the program goes through.
public enum FileDescriptorWriter {
    /// True when every byte was written.
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        let total = bytes.count
        var done = 0
        while done < total {
            let result = SystemCall.retryingInterrupts { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, total - done) } }
            if result <= 0 { return false }
            done += result
        }
        return true
    }
}
