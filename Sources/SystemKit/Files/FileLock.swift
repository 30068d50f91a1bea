#if canImport(Glibc)
import Glibc
#endif

/// An exclusive advisory lock on a file (flock), held until `release()` or the process ends, so
/// that of several processes racing to do one thing (start a service) only one does it.
public final class FileLock: Sendable {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock on `path` (created 0600 if missing, never through a symbolic link), waiting
    /// up to `seconds` for another holder to let go; nil when it could not be had in time.
    public static func acquire(_ path: String, waitingUpTo seconds: Double) throws(FileSystemError) -> FileLock? {
        let fd = try SystemCall.run("open", path: path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        let deadline = SystemTime.now() + Int64(seconds * 1e9)
        while true {
            if SystemCall.retryingInterrupts({ flock(fd, LOCK_EX | LOCK_NB) }) == 0 { return FileLock(fd: fd) }
            guard errno == EWOULDBLOCK, SystemTime.now() < deadline else {
                _ = close(fd)
                return nil
            }
            usleep(5_000)
        }
    }

    /// Lets the next process have the lock.
    public func release() {
        _ = flock(fd, LOCK_UN)
        _ = close(fd)
    }
}
