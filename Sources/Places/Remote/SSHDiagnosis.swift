import SystemKit

/// What `ssh` said on its standard error when a connection failed, in words a user can act on.
/// Only what ssh itself decided is told: a changed host key is never accepted here, the message
/// names the host and the `known_hosts` line that holds the key ssh expected.
package enum SSHDiagnosis {
    /// The failure's words for `errors` (ssh's standard error), or nil when ssh said nothing
    /// this knows.
    package static func explain(_ errors: String, host: String) -> String? {
        guard errors.contains("REMOTE HOST IDENTIFICATION HAS CHANGED") || errors.contains("Host key verification failed") else { return nil }
        let lines = errors.split(whereSeparator: \.isNewline).map(String.init)
        // "Offending ED25519 key in /home/me/.ssh/known_hosts:3"
        let offending = lines.first { $0.hasPrefix("Offending ") }.flatMap { line -> String? in
            let words = line.split(separator: " ", omittingEmptySubsequences: false)
            guard let index = words.firstIndex(of: "in"), index + 1 < words.count else { return nil }
            return words[(index + 1)...].joined(separator: " ").trimmingCharacters(in: " \r")
        }
        if errors.contains("REMOTE HOST IDENTIFICATION HAS CHANGED") {
            let place = offending.map { "the key it knew is at \(TerminalText.escaped($0))" } ?? "see ssh's warning above"
            return "the host key of \(host) has changed and ssh refused to connect (\(place)); nothing was accepted. "
                + "If the server was really reinstalled, check its new key's fingerprint with its owner, remove the old line "
                + "(ssh-keygen -R \(host)) and connect again"
        }
        return "ssh could not verify the host key of \(host) and refused to connect; nothing was accepted. "
            + "Connect once with ssh \(host) in a terminal to check and accept its key"
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
