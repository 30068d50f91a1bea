import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The user's `ssh` (or the shell running `QLBROWSE_SSH_COMMAND`) started for one connection,
/// over qlbrowse serve (`RemoteConnection`) or SFTP (`SFTPConnection`): its standard input a
/// socket (a request written after it ended fails instead of raising SIGPIPE), its output a
/// pipe the connection reads, none of our other descriptors; a thread keeps the last lines it
/// wrote on its standard error, for messages (shown as they come while connecting, where a
/// password prompt or a changed host key must be seen). The connections frame differently; what
/// starts and watches ssh is this, once.
final class SSHProcess: Sendable {
    let pid: pid_t
    /// The requests' end of the process's standard input.
    let requests: LocalSocket
    /// The read end of the process's standard output (the connection's reader closes it).
    let answers: Int32
    private let errors = Mutex<[UInt8]>([])
    private let echoesErrors: Atomic<Bool>
    private let errorsEnded = DispatchSemaphore(value: 0)

    /// Starts `command` (its argv); `echoErrors` shows its standard error on ours until
    /// `stopEchoing` (the hello answered); `label` names the error reader's thread.
    init(command: [String], echoErrors: Bool, label: String) throws(FileSystemError) {
        echoesErrors = Atomic(echoErrors)
        let (requestEnd, remoteInput) = try LocalSocket.pair()
        let fromRemote = try SystemPipe.make(), errorPipe = try SystemPipe.make()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, remoteInput.fd, 0)
        posix_spawn_file_actions_adddup2(&actions, fromRemote.writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe.writeEnd, 2)
        SpawnActions.closeOthers(&actions)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawnp(&child, argv[0]!, &actions, nil, argv, ProcessEnvironment.spawnEnvironment)
        remoteInput.close(); Glibc.close(fromRemote.writeEnd); Glibc.close(errorPipe.writeEnd)
        guard status == 0 else {
            requestEnd.close(); Glibc.close(fromRemote.readEnd); Glibc.close(errorPipe.readEnd)
            throw FileSystemError(errno: status, call: "posix_spawn", path: command.first ?? "", context: "cannot start \(TerminalText.escaped(command.first ?? ""))")
        }
        pid = child
        requests = requestEnd
        answers = fromRemote.readEnd
        startReadingErrors(errorPipe.readEnd, label: label)
    }

    /// Standard error is kept, no longer shown (the connection is up).
    func stopEchoing() { echoesErrors.store(false, ordering: .relaxed) }

    /// Waits (up to `seconds`) for standard error to end, so the last words are read before they
    /// are quoted (a ControlMaster that ssh left behind may hold it open: not for long).
    func waitForErrors(seconds: Double) { _ = errorsEnded.wait(timeout: .now() + seconds) }

    /// What the process wrote on its standard error (its last 4 KiB).
    var errorText: String { errors.withLock { String(decoding: $0, as: UTF8.self) } }

    /// The last line the process wrote on its standard error, as " (…)", or "".
    func lastError() -> String {
        guard let line = errorText.split(whereSeparator: \.isNewline).last else { return "" }
        let trimmed = line.drop { $0 == " " || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\r" }.reversed()
        return " (\(TerminalText.escaped(String(trimmed))))"
    }

    private func startReadingErrors(_ fd: Int32, label: String) {
        DispatchQueue(label: "\(label).errors.\(pid)").async { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = SystemCall.retryingInterrupts { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) } }
                guard count > 0 else { break }
                let chunk = Array(buffer[..<count])
                if echoesErrors.load(ordering: .relaxed) { _ = FileDescriptorWriter.writeAll(chunk, to: 2) }
                errors.withLock { kept in
                    kept += chunk
                    if kept.count > 4096 { kept.removeFirst(kept.count - 4096) }
                }
            }
            Glibc.close(fd)
            errorsEnded.signal()
        }
    }
}
