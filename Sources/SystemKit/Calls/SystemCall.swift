#if canImport(Glibc)
import Glibc
#endif

/// The one way the program makes a system call that may be interrupted: retried on EINTR, and
/// a failure turned into `FileSystemError` (the call, the path, the errno). Every loop that used
/// to spell `errno == EINTR` by hand goes through here.
public enum SystemCall {
    /// Runs `body` again while it fails with EINTR; returns its result as is (negative with
    /// `errno` set on another failure), for callers that look at the errno themselves.
    @inlinable
    public static func retryingInterrupts<Result: BinaryInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }

    /// Runs `body` again while it fails with EINTR; a negative result throws a `FileSystemError`
    /// naming `call` and `path` (`context`, when given, is the message's lead).
    @inlinable
    public static func run<Result: BinaryInteger>(_ call: String, path: String = "", context: String? = nil,
                                                  _ body: () -> Result) throws(FileSystemError) -> Result {
        let result = retryingInterrupts(body)
        guard result >= 0 else { throw FileSystemError(errno: errno, call: call, path: path, context: context) }
        return result
    }

    /// Waits for the child `pid` to end and returns its raw wait status (0 when it cannot be
    /// waited for: it was reaped already).
    @discardableResult
    public static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        _ = retryingInterrupts { waitpid(pid, &status, 0) }
        return status
    }
}
