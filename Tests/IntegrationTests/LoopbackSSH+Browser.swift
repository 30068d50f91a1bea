import Foundation
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

extension LoopbackSSH {
    /// The browser on `folder` in tmux, reaching this server through its ssh command line, with
    /// this computer's state, data and config in the test's folder; `environment` adds to it.
    func browser(on folder: String, environment: [String: String] = [:]) throws -> TmuxSession {
        let base = ["QLBROWSE_SSH_COMMAND": sshCommand, "QLBROWSE_REMOTE_COMMAND": remoteCommand,
                    "XDG_STATE_HOME": self.folder.path + "/local-state", "XDG_DATA_HOME": self.folder.path + "/local-data",
                    "XDG_CONFIG_HOME": self.folder.path + "/local-config"]
        return try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(folder)'", columns: 140, rows: 30,
                               environment: base.merging(environment) { _, given in given })
    }

    /// Lets this server's ssh command line (its key, its known_hosts) reach `other` as well:
    /// the key authorised there, the other's host key known here. Two hosts, one ssh command.
    func trust(_ other: LoopbackSSH) throws {
        let key = try Data(contentsOf: folder.appendingPathComponent("client_key.pub"))
        let authorized = try FileHandle(forWritingTo: other.folder.appendingPathComponent("authorized_keys"))
        try authorized.seekToEnd()
        try authorized.write(contentsOf: key)
        try authorized.close()
        let known = try Data(contentsOf: other.folder.appendingPathComponent("known_hosts"))
        let here = try FileHandle(forWritingTo: folder.appendingPathComponent("known_hosts"))
        try here.seekToEnd()
        try here.write(contentsOf: known)
        try here.close()
    }
}

extension TmuxSession {
    /// Waits (up to `seconds`) until `condition` holds (a file's bytes, a process gone).
    static func eventually(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(100_000)
        }
        return condition()
    }

    /// The volumes view's `V`, `C`, the address, Enter: the connect prompt.
    func connect(to address: String) -> Bool {
        type("V")
        guard waitFor(10, { $0.contains("C connects to a server") }) else { return false }
        type("C")
        guard waitFor(10, { $0.contains("server (") }) else { return false }
        type(address)
        send("Enter")
        return true
    }

    /// The browser's process id (the child of the pane's shell named qlbrowse), nil if none.
    func browserPID() -> pid_t? {
        let shell = pid_t(tmux(["list-panes", "-t", name, "-F", "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        guard let shell else { return nil }
        return LoopbackSSH.descendants(of: shell).first { Self.command(of: $0) == "qlbrowse" }
    }

    /// A process's name (`/proc/PID/comm`), nil once it is gone.
    static func command(of pid: pid_t) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `pid` still runs (a zombie counts as ended).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }
}

extension LoopbackSSH {
    /// The folder `name` inside the test's folder, made now (with `inner` folders inside it).
    func subfolder(_ name: String, creating inner: String = "") throws -> String {
        let path = folder.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: inner.isEmpty ? path : path + "/" + inner, withIntermediateDirectories: true)
        return path
    }

    /// An XDG config folder whose `qlbrowse/config.toml` reaches this server (`ssh_command`) and
    /// runs `remoteCommand` there (default: the qlbrowse under test), for commands run outside tmux.
    func configHome(remoteCommand: String? = nil) throws -> String {
        let config = try subfolder("config", creating: "qlbrowse")
        try "ssh_command = \"\(sshCommand)\"\nremote_command = \"\(remoteCommand ?? self.remoteCommand)\"\n"
            .write(toFile: config + "/qlbrowse/config.toml", atomically: true, encoding: .utf8)
        return config
    }
}
