#if canImport(Glibc)
import Glibc
#endif

/// Runs a program without a terminal and returns what it printed: tmux's answers, the worker's
/// type list, a highlighter's colours. `input` goes in on standard input (nothing: /dev/null),
/// standard error is dropped, and a program that overruns its deadline is killed. Off the UI thread.
public enum ProcessOutput {
    /// The program's standard output, or nil when it could not start, failed, printed more than
    /// `limit` bytes, or overran `seconds`.
    public static func run(_ command: [String], input text: [UInt8] = [], limit: Int = 16 << 20, seconds: Double = 10) -> [UInt8]? {
        guard let input = try? SystemPipe.make() else { return nil }
        guard let output = try? SystemPipe.make() else { input.close(); return nil }
        let toChild = [input.readEnd, input.writeEnd], fromChild = [output.readEnd, output.writeEnd]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if text.isEmpty { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) } else { posix_spawn_file_actions_adddup2(&actions, toChild[0], 0) }
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0]!, &actions, nil, argv, ProcessEnvironment.spawnEnvironment) == 0
        close(toChild[0])
        close(fromChild[1])
        defer { close(fromChild[0]) }
        guard spawned else { close(toChild[1]); return nil }
        // Writing and reading take turns through poll, so neither side waits on a full pipe.
        _ = fcntl(toChild[1], F_SETFL, O_NONBLOCK)
        var written = 0, result: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
        var writer: Int32 = text.isEmpty ? -1 : toChild[1]
        if writer < 0 { close(toChild[1]) }
        let deadline = Self.now() + seconds
        var finished = false
        while !finished && Self.now() < deadline {
            var fds = [pollfd(fd: fromChild[0], events: Int16(POLLIN), revents: 0), pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)]
            guard poll(&fds, 2, 100) >= 0 || errno == EINTR else { break }
            if writer >= 0, fds[1].revents != 0 {
                let count = text.withUnsafeBytes { write(writer, $0.baseAddress! + written, text.count - written) }
                if count > 0 { written += count }
                if count < 0 && errno != EAGAIN || written == text.count { close(writer); writer = -1 }
            }
            if fds[0].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(fromChild[0], $0.baseAddress, $0.count) }
                if count > 0 { result += buffer[0..<count] } else if count == 0 || errno != EINTR && errno != EAGAIN { finished = true }
                if result.count > limit { break }
            }
        }
        if writer >= 0 { close(writer) }
        if !finished { kill(pid, SIGKILL) }
        // The outcome is known; the child is reaped either way.
        let status = SystemCall.waitForExit(pid)
        return finished && status == 0 ? result : nil
    }

    /// Runs a program and hands each line it prints to `line` as it comes, until it ends, `line`
    /// returns false, `isCancelled` says so (asked every 100 ms, so a program that prints nothing
    /// for a while is stopped all the same), or `seconds` pass (then it is killed). A line is its
    /// bytes as a name's string (`FileSystemBytes`): a path that is not UTF-8 stays those bytes.
    /// Returns false when it could not start.
    @discardableResult
    public static func lines(_ command: [String], seconds: Double = 60, isCancelled: () -> Bool = { false }, _ line: (String) -> Bool) -> Bool {
        guard let output = try? SystemPipe.make() else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Arguments are paths too (a folder to search): their bytes, not their UTF-8.
        let argv = command.map { $0.withFileSystemRepresentation { strdup($0) } } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0]!, &actions, nil, argv, ProcessEnvironment.spawnEnvironment) == 0
        close(output.writeEnd)
        defer { close(output.readEnd) }
        guard spawned else { return false }
        var pending: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536), going = true
        let deadline = now() + seconds
        while going && now() < deadline && !isCancelled() {
            var fds = [pollfd(fd: output.readEnd, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 100) >= 0 || errno == EINTR else { break }
            guard fds[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(output.readEnd, $0.baseAddress, $0.count) }
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { break }
            guard count > 0 else { continue }
            pending += buffer[0..<count]
            while going, let newline = pending.firstIndex(of: 0x0A) {
                going = line(FileSystemBytes.string(from: pending[..<newline]))
                pending.removeSubrange(...newline)
            }
        }
        kill(pid, SIGKILL)  // gone already, or no longer wanted
        _ = SystemCall.waitForExit(pid)
        return true
    }

    private static func now() -> Double { Double(SystemTime.now()) / 1e9 }
}
