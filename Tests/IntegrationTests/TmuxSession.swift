import Foundation

/// A real terminal for the browser: a tmux session on its own server socket, driven with
/// `send-keys` and read with `capture-pane`, the way a person uses it.
final class TmuxSession {
    let socket: String
    let name = "qlb"

    /// Starts `command` (run by /bin/sh) in a `columns`×`rows` terminal.
    init(command: String, columns: Int = 120, rows: Int = 35, environment: [String: String] = [:]) throws {
        socket = FileManager.default.temporaryDirectory.appendingPathComponent("qlb-tmux-\(UUID().uuidString.prefix(8))").path
        var env = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "XDG_CACHE_HOME": TestEnvironment.isolatedCache.path,
                   "QLBROWSE_NO_SERVICE": "1"]
        for (key, value) in environment { env[key] = value }
        let exports = env.map { "export \($0.key)='\($0.value)';" }.joined(separator: " ")
        let result = tmux(detached: true, ["new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), "\(exports) \(command); echo EXITED:$?; sleep 600"])
        guard result.status == 0 else { throw TmuxError.failed("tmux new-session exited with \(result.status)") }
    }

    deinit { _ = tmux(detached: true, ["kill-server"]) }

    /// Runs a tmux command through system(3): tmux's client forks the server, which Foundation's
    /// Process does not cope with (the client is never reaped and the call never returns).
    @discardableResult
    func tmux(detached: Bool = false, _ arguments: [String]) -> TestEnvironment.Result {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("qlb-tmux-out-\(UUID().uuidString)").path
        defer { unlink(output) }
        let words = ["/usr/bin/tmux", "-S", socket, "-f", "/dev/null"] + arguments
        let command = words.map(Self.quote).joined(separator: " ") + " </dev/null >" + Self.quote(output) + " 2>&1"
        let status = system(command)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return TestEnvironment.Result(status: (status >> 8) & 0xff, stdout: text, stderr: text, seconds: 0)
    }

    static func quote(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    func send(_ keys: String...) { tmux(["send-keys", "-t", name] + keys) }
    func type(_ text: String) { tmux(["send-keys", "-t", name, "-l", text]) }

    /// The screen as text (with `-e`: with escape sequences for colours).
    func screen(escapes: Bool = false) -> String {
        tmux(["capture-pane", "-p", "-t", name] + (escapes ? ["-e"] : [])).stdout
    }

    func lines() -> [String] { screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// Waits until `condition` holds on the screen (polling), up to `timeout` seconds. The bound
    /// catches a hang, not slowness: CI runs these beside the corpus tests on two busy cores, where
    /// a first start of the browser and its worker has taken over 5 seconds.
    @discardableResult
    func waitFor(_ timeout: Double = 20, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(screen()) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition(screen())
    }

    func resize(columns: Int, rows: Int) { tmux(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)]) }

    var paneTitle: String { tmux(["display-message", "-p", "-t", name, "#{pane_title}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) }

    enum TmuxError: Error { case failed(String) }
}
