import Synchronization
import SystemKit

/// ssh's own check that the link still carries anything (`ServerAliveInterval`): on a link gone
/// silent (100 % loss, a cable pulled, a VPN dropped) TCP says nothing for many minutes, and ssh
/// with it; with the check, ssh ends after `interval` × `ServerAliveCountMax` (3 unless set)
/// seconds without an answer from sshd, the connection is then gone and the next call connects
/// again. sshd answers even while the remote qlbrowse hangs, so a hung remote is not taken for
/// a dead link (that one is the requests' deadlines' to tell).
///
/// The user's settings stay in charge: ssh takes the first value it gets, and the command line
/// before any config file, so ours is added only when `ssh -G` (the same command line, resolving
/// their config for this host) says no interval is set; when it cannot say (a wrapper that is
/// not ssh), nothing is added.
enum SSHKeepAlive {
    /// Seconds between ssh's checks: 45 s of silence with the default count of 3.
    static let interval = 15

    private static let known = Mutex<[String: [String]]>([:])

    /// The options to add to the command line that reaches `address` ([] or `-o ServerAliveInterval=15`).
    /// Blocking (runs `ssh -G`, once per command line and address): never on a cooperative thread.
    static func options(for address: RemoteAddress, command: RemoteCommand) -> [String] {
        let query = command.configQuery(for: address)
        let key = query.joined(separator: "\u{0}")
        if let options = known.withLock({ $0[key] }) { return options }
        let options: [String]
        if let output = ProcessOutput.run(query, limit: 1 << 20, seconds: 5) {
            let text = String(decoding: output, as: UTF8.self)
            let set = text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("serveraliveinterval ") }
            options = set?.split(separator: " ").last == "0" ? ["-o", "ServerAliveInterval=\(interval)"] : []
        } else {
            options = []
        }
        known.withLock { $0[key] = options }
        return options
    }
}
