import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Talks to the tmux server the browser runs under (by running `tmux`, which finds it through
/// `$TMUX`): what the outer terminal is, where the pane sits, and the pane's `allow-passthrough`,
/// turned on for this pane only and put back as it was on quit.
public struct TmuxClient: Sendable {
    /// `$TMUX_PANE`: the pane to ask about and to change.
    public let pane: String

    public init?(environment: [String: String]) {
        guard environment["TMUX"] != nil, let pane = environment["TMUX_PANE"], !pane.isEmpty else { return nil }
        self.pane = pane
    }

    static let format = "#{version}\t#{client_termname}\t#{client_termtype}\t#{client_termfeatures}\t#{pane_top}\t#{pane_left}\t#{status}\t#{status-position}"

    /// What tmux says about itself, the client terminal and the pane; nil when tmux does not answer.
    /// With the colours of the outer terminal's terminfo entry (`tput -T`), which tmux maps to.
    public func facts() -> TmuxFacts? {
        guard var facts = CommandOutput.run(["tmux", "display-message", "-p", "-t", pane, Self.format]).flatMap(TmuxFacts.parse) else { return nil }
        if !facts.clientTerm.isEmpty, let colors = CommandOutput.run(["tput", "-T", facts.clientTerm, "colors"]).flatMap({ Int($0.trimmingWhitespace) }) {
            facts.clientColors = colors
        }
        return facts
    }

    /// The pane's place on the outer terminal now (it moves when panes are split or resized).
    public func paneOrigin() -> TmuxPane? {
        facts()?.pane
    }

    /// Turns `allow-passthrough` on for this pane; returns what to hand `restorePassthrough` on quit.
    public func enablePassthrough() -> String? {
        let previous = CommandOutput.run(["tmux", "show-options", "-p", "-t", pane, "-v", "allow-passthrough"])?.trimmingWhitespace ?? ""
        guard previous != "on" && previous != "all" else { return nil }
        guard CommandOutput.run(["tmux", "set-option", "-p", "-t", pane, "allow-passthrough", "on"]) != nil else { return nil }
        return previous
    }

    /// Puts the pane's `allow-passthrough` back: unset (inherited again) when it was not set on the pane.
    public func restorePassthrough(_ previous: String) {
        if previous.isEmpty {
            _ = CommandOutput.run(["tmux", "set-option", "-p", "-u", "-t", pane, "allow-passthrough"])
        } else {
            _ = CommandOutput.run(["tmux", "set-option", "-p", "-t", pane, "allow-passthrough", previous])
        }
    }
}

/// Runs a program with no terminal and returns what it printed, or nil when it failed.
enum CommandOutput {
    static func run(_ command: [String]) -> String? {
        ProcessOutput.run(command, limit: 1 << 16, seconds: 5).map { String(decoding: $0, as: UTF8.self).trimmingTrailingNewline }
    }
}

extension String {
    var trimmingTrailingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}

extension Substring {
    var trimmingWhitespace: String { String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
}

extension String {
    var trimmingWhitespace: String { self[...].trimmingWhitespace }
}
