internal import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// Both ends of a pipe made with pipe2(O_CLOEXEC): neither end leaks into a child the program
/// spawns (a worker, `$EDITOR`) unless it is deliberately given to it with a posix_spawn dup2.
public struct SystemPipe: Sendable {
    /// The end to read from; the caller closes it.
    public let readEnd: Int32
    /// The end to write to (or to dup2 onto a child's descriptor); the caller closes it.
    public let writeEnd: Int32

    /// A new pipe; `nonBlocking` makes both ends O_NONBLOCK too (a wake-up pipe that must never
    /// block its writer or its reader).
    public static func make(nonBlocking: Bool = false) throws(FileSystemError) -> SystemPipe {
        var fds: [Int32] = [0, 0]
        let flags = O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
        _ = try SystemCall.run("pipe2") { CSystem_pipe2(&fds, flags) }
        return SystemPipe(readEnd: fds[0], writeEnd: fds[1])
    }

    /// Closes both ends.
    public func close() {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }
}
