import CSystem
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Runs one external command to its end under a wall-clock deadline, with no shell: `posix_spawn`
/// in a process group of its own (so killing it also kills whatever it started), default signal
/// handling (the worker ignores SIGPIPE; a child must not inherit that), standard input on
/// `/dev/null`, standard output on `/dev/null` or captured (a previewer's text), standard error
/// shared with the worker's log.
enum ThumbnailerProcess {
    enum Outcome: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
        case cancelled
        /// The command printed more than the capture's limit and was killed.
        case overflowed
    }

    /// How often the child and the cancellation flag are looked at.
    static let pollInterval: useconds_t = 20_000

    /// Runs `arguments` (`arguments[0]` an absolute path) in `directory`; throws only when it cannot start.
    static func run(_ arguments: [String], directory: String? = nil, deadline: Double,
                    cancellation: CancellationFlag?) throws(ThumbnailError) -> Outcome {
        try run(arguments, directory: directory, deadline: deadline, cancellation: cancellation, capture: nil)
    }

    /// Runs `arguments` as above and collects its standard output, at most `limit` bytes: more
    /// kills the command (`.overflowed`) and keeps the first `limit` bytes.
    static func capture(_ arguments: [String], directory: String? = nil, deadline: Double, limit: Int,
                        cancellation: CancellationFlag?) throws(ThumbnailError) -> (outcome: Outcome, output: [UInt8]) {
        let capture = OutputCapture(limit: limit)
        let outcome = try run(arguments, directory: directory, deadline: deadline, cancellation: cancellation, capture: capture)
        // A command that printed too much and then ended on its own still printed too much.
        return (capture.overflowed ? .overflowed : outcome, capture.bytes)
    }

    private static func run(_ arguments: [String], directory: String?, deadline: Double, cancellation: CancellationFlag?,
                            capture: OutputCapture?) throws(ThumbnailError) -> Outcome {
        var pipe: SystemPipe?
        if capture != nil {
            do { pipe = try SystemPipe.make() } catch {
                throw ThumbnailError(.unsupported, "cannot start \(arguments[0]): \(String(cString: strerror(error.errno)))")
            }
        }
        defer { if let pipe { close(pipe.readEnd) } }
        let pid: pid_t
        do {
            defer { if let pipe { close(pipe.writeEnd) } }
            pid = try spawn(arguments, directory: directory, output: pipe?.writeEnd)
        }
        let start = ContinuousClock.now
        let limit = Duration.milliseconds(Int64(max(0, deadline) * 1000))
        while true {
            var raw: Int32 = 0
            let result = SystemCall.retryingInterrupts { waitpid(pid, &raw, WNOHANG) }
            if result == pid {
                if let pipe, let capture { capture.drain(pipe.readEnd) }
                return decode(raw)
            }
            if result < 0 { return .exited(-1) }
            if cancellation?.isCancelled == true {
                stop(pid)
                return .cancelled
            }
            if ContinuousClock.now - start > limit {
                stop(pid)
                return .timedOut
            }
            if let pipe, let capture {
                // Waits for output for at most a poll interval, so a chatty command never blocks on a full pipe.
                if !capture.read(pipe.readEnd, waiting: Int32(pollInterval / 1000)) {
                    stop(pid)
                    return .overflowed
                }
            } else {
                usleep(pollInterval)
            }
        }
    }

    private static func spawn(_ arguments: [String], directory: String?, output: Int32?) throws(ThumbnailError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if let directory { directory.withFileSystemRepresentation { _ = CSystem_spawn_addchdir(&actions, $0) } }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, argv[0]!, &actions, &attributes, argv, ProcessEnvironment.spawnEnvironment)
        guard status == 0 else {
            throw ThumbnailError(.unsupported, "cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// Kills the child's whole process group and reaps the child, so nothing is left behind.
    private static func stop(_ pid: pid_t) {
        _ = kill(-pid, SIGKILL)
        _ = kill(pid, SIGKILL)
        SystemCall.waitForExit(pid)
    }

    private static func decode(_ raw: Int32) -> Outcome {
        let signal = raw & 0x7f
        return signal == 0 ? .exited((raw >> 8) & 0xff) : .signalled(signal)
    }
}
