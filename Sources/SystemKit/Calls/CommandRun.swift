import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs a system tool that mounts, unmounts or probes (mount(8), sshfs, smbnetfs, blkid,
/// udisksctl) and keeps what it said: its exit status, standard output and standard error, so
/// that a failure can be told to the user as a sentence. Unlike `ProcessOutput` it waits for the
/// program's exit, not for the end of its output: a FUSE daemon forks and its child keeps the
/// pipes open for as long as the mount lives. `input` goes in on standard input (a password,
/// never an argument), a deadline kills it, and so does `cancel` (Esc in the browser).
public struct CommandRun: Sendable {
    /// How the program ended.
    public enum Ending: Sendable, Equatable {
        /// It exited with this status (0: success).
        case exited(Int32)
        /// It was killed by a signal.
        case killed(Int32)
        /// It overran the deadline and was killed.
        case timedOut
        /// The caller gave up on it (`cancel` set) and it was killed.
        case cancelled
        /// It could not be started (not installed, not executable).
        case notStarted
    }

    public let ending: Ending
    public let output: String
    public let errors: String

    /// Whether it exited with status 0.
    public var succeeded: Bool { ending == .exited(0) }
    /// What it printed, standard error first (where tools explain failures), trimmed.
    public var said: String {
        (errors + "\n" + output).split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { String($0.drop { $0 == " " || $0 == "\t" }) }.filter { !$0.isEmpty }.joined(separator: "; ")
    }

    public init(ending: Ending, output: String, errors: String) {
        self.ending = ending
        self.output = output
        self.errors = errors
    }

    /// Runs `command` (the first word looked up in PATH) with `environment` added to the
    /// process's own, `input` on standard input, for at most `seconds`.
    public static func run(_ command: [String], environment: [String: String] = [:], input: [UInt8] = [], seconds: Double = 30,
                           cancel: CancelSignal? = nil) -> CommandRun {
        // A socket, not a pipe, for standard input: writing to a tool that already ended fails
        // instead of raising SIGPIPE in the caller.
        guard let (stdinWriter, stdinReader) = try? LocalSocket.pair() else { return CommandRun(ending: .notStarted, output: "", errors: "") }
        guard let outPipe = try? SystemPipe.make(nonBlocking: true) else { stdinWriter.close(); stdinReader.close(); return CommandRun(ending: .notStarted, output: "", errors: "") }
        guard let errPipe = try? SystemPipe.make(nonBlocking: true) else {
            stdinWriter.close(); stdinReader.close(); outPipe.close(); return CommandRun(ending: .notStarted, output: "", errors: "")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinReader.fd, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe.writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe.writeEnd, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own: the browser's terminal signals (Ctrl-C) are not the tool's.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var merged = ProcessEnvironment.current.variables
        for (name, value) in environment { merged[name] = value }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = !command.isEmpty && posix_spawnp(&pid, argv[0]!, &actions, &attributes, argv, envp) == 0
        stdinReader.close()
        close(outPipe.writeEnd)
        close(errPipe.writeEnd)
        defer { close(outPipe.readEnd); close(errPipe.readEnd) }
        // The input is small (a password and a newline): it fits in the socket's buffer at once.
        if spawned && !input.isEmpty { stdinWriter.send(input) }
        stdinWriter.close()
        guard spawned else { return CommandRun(ending: .notStarted, output: "", errors: "") }
        var output: [UInt8] = [], errors: [UInt8] = []
        let deadline = now() + seconds
        var ending: Ending?
        while ending == nil {
            drain(outPipe.readEnd, into: &output)
            drain(errPipe.readEnd, into: &errors)
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                ending = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .killed(status & 0x7f)
                break
            }
            if cancel?.isCancelled == true { ending = .cancelled } else if now() > deadline { ending = .timedOut } else {
                var fds = [pollfd(fd: outPipe.readEnd, events: Int16(POLLIN), revents: 0), pollfd(fd: errPipe.readEnd, events: Int16(POLLIN), revents: 0)]
                _ = poll(&fds, 2, 50)
                continue
            }
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            _ = SystemCall.waitForExit(pid)
        }
        drain(outPipe.readEnd, into: &output)
        drain(errPipe.readEnd, into: &errors)
        return CommandRun(ending: ending ?? .notStarted, output: String(decoding: output, as: UTF8.self), errors: String(decoding: errors, as: UTF8.self))
    }

    /// Reads what is there without waiting (the pipes are non-blocking), at most 1 MiB in all.
    private static func drain(_ fd: Int32, into bytes: inout [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while bytes.count < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            bytes += buffer[0..<count]
        }
    }

    private static func now() -> Double { Double(SystemTime.now()) / 1e9 }
}
