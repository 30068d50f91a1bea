import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// SFTP through sshfs (a user-level FUSE mount), with the user's own ssh, or the command in
/// QLBROWSE_SSH_COMMAND / `ssh_command` (as git's GIT_SSH_COMMAND: a command line split on
/// spaces). Without a password ssh runs in batch mode (keys and agents only, never a prompt on
/// the browser's terminal); a password goes to sshfs on standard input.
public struct SFTPConnector: ServerConnector {
    public let sshCommand: String?

    public init(sshCommand: String?) { self.sshCommand = sshCommand }

    public var name: String { "sshfs" }

    /// sshfs' arguments for `address` mounted at `mountPoint` (no password in them).
    public func arguments(_ address: ServerAddress, mountPoint: String, password: Bool, seconds: Double, log: String? = nil) -> [String] {
        let remote = (address.user.map { $0 + "@" } ?? "") + (address.host.contains(":") ? "[\(address.host)]" : address.host) + ":" + (address.path.isEmpty ? "" : "/" + address.path)
        var options = ["reconnect", "ServerAliveInterval=15", "ServerAliveCountMax=3", "ConnectTimeout=\(max(1, Int(seconds)))"]
        // sshfs splits its -o list on commas: a comma inside the command is escaped.
        // sshfs sends ssh's own words ("Permission denied (publickey)") nowhere: ssh's -E keeps
        // them in `log` (sshfs splits the command on spaces: a log path with one is not given).
        let ssh = (sshCommand?.isEmpty == false ? sshCommand! : "ssh") + (log.map { $0.contains(" ") ? "" : " -E " + $0 } ?? "")
        options.append("ssh_command=" + ssh.replacingCommas())
        options += password ? ["password_stdin", "NumberOfPasswordPrompts=1", "PreferredAuthentications=password,keyboard-interactive"] : ["BatchMode=yes"]
        return ["sshfs", remote, mountPoint, "-p", String(address.port ?? 22), "-o", options.joined(separator: ",")]
    }

    public func connect(_ address: ServerAddress, password: String?, mountRoot: String, seconds: Double, cancel: CancelSignal?) throws(MountFailure) -> ServerConnection {
        guard ProgramSearch.executable("sshfs") != nil else {
            throw MountFailure(.other, "SFTP needs sshfs, which is not installed (Debian: apt install sshfs)")
        }
        let mountPoint = try ServerConnectors.mountPoint(root: mountRoot, label: address.label)
        let started = SystemTime.now()
        let log = mountRoot + "/.ssh-\(getpid()).log"
        defer { _ = unlink(log) }
        var run = CommandRun.run(arguments(address, mountPoint: mountPoint, password: password != nil, seconds: seconds, log: log),
                                 input: password.map { Array(($0 + "\n").utf8) } ?? [], seconds: seconds + 2, cancel: cancel)
        if !run.succeeded, let said = FileDescriptorReader.readFile(log, upTo: 1 << 16) {
            run = CommandRun(ending: run.ending, output: run.output, errors: String(decoding: said, as: UTF8.self) + "\n" + run.errors)
        }
        guard run.succeeded, Self.waitUntilMounted(mountPoint) else {
            _ = CommandRun.run(["fusermount3", "-u", mountPoint], seconds: 5)
            _ = rmdir(mountPoint)
            // ssh gives up on a silent server at ConnectTimeout, and sshfs then only says "read:
            // Connection reset by peer": a failure that took the whole deadline is silence.
            let silent = Double(SystemTime.now() - started) / 1e9 >= seconds * 0.9
            throw silent && run.succeeded == false && run.ending != .cancelled
                ? MountFailure(.timedOut, "\(address.host) did not answer within \(Int(seconds)) s")
                : Self.failure(run, address: address, password: password != nil, seconds: seconds)
        }
        return ServerConnection(address: address, mountPoint: mountPoint, folder: mountPoint)
    }

    static func waitUntilMounted(_ mountPoint: String) -> Bool {
        for _ in 0..<100 {
            if VolumeMonitor.currentVolumes().contains(where: { $0.mountPoint == mountPoint }) { return true }
            usleep(20_000)
        }
        return false
    }

    /// What ssh and sshfs said, as a sentence.
    static func failure(_ run: CommandRun, address: ServerAddress, password: Bool, seconds: Double) -> MountFailure {
        let said = run.said, host = address.host
        switch run.ending {
        case .cancelled: return MountFailure(.cancelled, "connecting to \(host) was cancelled")
        case .timedOut: return MountFailure(.timedOut, "\(host) did not answer within \(Int(seconds)) s")
        case .notStarted: return MountFailure(.other, "sshfs could not be started")
        default: break
        }
        if said.contains("Permission denied") || said.contains("Authentication failed") || said.contains("Too many authentication failures") {
            if password { return MountFailure(.wrongPassword, "\(host) refused the user name or password") }
            if said.contains("password") || said.contains("keyboard-interactive") {
                return MountFailure(.needsPassword, "\(host) wants a password (no key of yours was accepted)")
            }
            return MountFailure(.permissionDenied, "\(host) refused every key offered and takes no password")
        }
        if said.contains("Could not resolve hostname") { return MountFailure(.unknownHost, "there is no server called \(host) (the name does not resolve)") }
        if said.contains("Connection refused") { return MountFailure(.refused, "\(host) refused the connection on port \(address.port ?? 22)") }
        if said.contains("timed out") { return MountFailure(.timedOut, "\(host) did not answer within \(Int(seconds)) s") }
        if said.contains("Host key verification failed") {
            return MountFailure(.other, "\(host)'s host key is not known (or changed): connect once with ssh to check and accept it")
        }
        if said.contains("No such file or directory") { return MountFailure(.noSuchShare, "\(host) has no folder /\(address.path)") }
        return MountFailure(.other, "\(host) could not be mounted over SFTP: \(said.isEmpty ? "sshfs failed" : said)")
    }
}

private extension String {
    func replacingCommas() -> String { split(separator: ",", omittingEmptySubsequences: false).joined(separator: "\\,") }
}
