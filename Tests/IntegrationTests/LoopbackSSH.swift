import Foundation
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// A real OpenSSH server on a loopback port, started by a test with keys the test made (a host
/// key, a client key, a known_hosts that names the host key, so nothing is trusted blindly), and
/// the ssh command line that reaches it (`QLBROWSE_SSH_COMMAND`'s form). The "remote" is this
/// machine; its `qlbrowse` is the binary under test, with a cache of its own.
final class LoopbackSSH: @unchecked Sendable {
    let folder: URL
    let port: Int
    /// The sshd process: spawned here, not with Foundation's `Process`, whose reaper waits on a
    /// process that never ends (sshd -D) and then reaps no other child of the test run.
    private let serverPID: pid_t
    /// Where the remote's thumbnails are cached (its XDG_CACHE_HOME).
    let remoteCache: URL

    /// Nil when sshd is not installed or did not start (the caller records why).
    init?() {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") else { return nil }
        // sshd refuses to start without its privilege separation folder, which only the system's
        // own start of the service makes (a fresh machine without systemd has none).
        if geteuid() == 0 { try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true) }
        folder = TestEnvironment.temporaryFolder("qlbrowse-ssh")
        remoteCache = folder.appendingPathComponent("remote-cache")
        try? FileManager.default.createDirectory(at: remoteCache, withIntermediateDirectories: true)
        for key in ["host_key", "client_key"] {
            TestEnvironment.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", folder.appendingPathComponent(key).path])
        }
        try? FileManager.default.copyItem(at: folder.appendingPathComponent("client_key.pub"), to: folder.appendingPathComponent("authorized_keys"))
        port = Self.freePort()
        let config = """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(folder.path)/host_key
            PidFile \(folder.path)/sshd.pid
            AuthorizedKeysFile \(folder.path)/authorized_keys
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            UsePAM no
            StrictModes no
            LogLevel ERROR
            Subsystem sftp internal-sftp

            """
        try? config.write(to: folder.appendingPathComponent("sshd_config"), atomically: true, encoding: .utf8)
        let hostKey = (try? String(contentsOf: folder.appendingPathComponent("host_key.pub"), encoding: .utf8)) ?? ""
        let known = "[127.0.0.1]:\(port) " + hostKey.split(separator: " ").prefix(2).joined(separator: " ") + "\n"
        try? known.write(to: folder.appendingPathComponent("known_hosts"), atomically: true, encoding: .utf8)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        // Nothing else of this process: sshd runs for the whole test, and a pipe of another test's
        // running command it held open would keep that command's reader waiting for its end
        // (seen in CI: a test stuck reading ssh-keygen's output).
        SpawnActions.closeOthers(&actions)
        let words: [String] = ["/usr/sbin/sshd", "-D", "-e", "-f", folder.appendingPathComponent("sshd_config").path]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, argv[0]!, &actions, nil, argv, environ) == 0 else { return nil }
        serverPID = pid
        guard Self.waitForListener(port: port, seconds: 10) else {
            stop()
            return nil
        }
    }

    deinit { stop() }

    /// The ssh command line for `QLBROWSE_SSH_COMMAND` (no agent, no user config, this key only,
    /// the host key checked against the test's known_hosts).
    var sshCommand: String {
        "ssh -F /dev/null -i \(folder.path)/client_key -o IdentitiesOnly=yes -o IdentityAgent=none -o BatchMode=yes " +
            "-o UserKnownHostsFile=\(folder.path)/known_hosts -o StrictHostKeyChecking=yes -o ConnectTimeout=5"
    }

    /// What runs on the remote: the binary under test, with the remote's own cache, state and trash.
    var remoteCommand: String {
        "env XDG_CACHE_HOME=\(remoteCache.path) XDG_STATE_HOME=\(folder.path)/remote-state XDG_DATA_HOME=\(folder.path)/remote-data \(TestEnvironment.qlbrowse)"
    }

    /// The `ssh://` address of `path` on this server (through `port`, a relay's, when given).
    func url(_ path: String, port: Int? = nil) -> String { "ssh://127.0.0.1:\(port ?? self.port)\(path)" }

    /// A relay in front of this server (`LinkRelay`), its port named in known_hosts with the
    /// server's key, so ssh checks the same host key through it.
    func relay() throws -> LinkRelay {
        guard let relay = LinkRelay(to: port) else { throw CocoaError(.fileWriteUnknown) }
        let knownHosts = folder.appendingPathComponent("known_hosts").path
        let line = try String(contentsOfFile: knownHosts, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        let key = line.split(separator: " ").dropFirst().joined(separator: " ")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: knownHosts))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("[127.0.0.1]:\(relay.port) \(key)\n".utf8))
        try handle.close()
        return relay
    }

    /// Kills the server and every process it started (the sessions, and the `qlbrowse serve`
    /// they run), by their ids: the link drops as when a server dies.
    func stop() {
        guard !stopped else { return }
        stopped = true
        let pids = [serverPID] + Self.descendants(of: serverPID)
        for pid in pids { kill(pid, SIGKILL) }
        var status: Int32 = 0
        _ = waitpid(serverPID, &status, 0)
    }

    private var stopped = false

    /// The `qlbrowse serve` processes running under this server.
    func servers() -> [pid_t] {
        Self.descendants(of: serverPID).filter { pid in
            let cmdline = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            let words = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.first?.hasSuffix("/qlbrowse") == true && words.contains("serve")
        }
    }

    /// The sessions sshd runs (with internal-sftp, the SFTP server is the session itself).
    func sessions() -> [pid_t] { Self.descendants(of: serverPID) }

    /// Every process whose parent chain leads to `root`, read from /proc.
    static func descendants(of root: pid_t) -> [pid_t] {
        var parents: [pid_t: pid_t] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[pid] = parent }
        }
        var found: [pid_t] = []
        var frontier = [root]
        while let next = frontier.popLast() {
            let children = parents.filter { $0.value == next }.map(\.key)
            found += children
            frontier += children
        }
        return found
    }

    private static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func waitForListener(port: Int, seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
            close(fd)
            if connected { return true }
            usleep(50_000)
        }
        return false
    }
}
