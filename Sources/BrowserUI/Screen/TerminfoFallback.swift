/// Which terminfo entries to try when `TERM` names one this machine lacks: a close relative first
/// (a 256-colour xterm for terminals that are xterm-like and have 256 colours), then plain ones.
enum TerminfoFallback {
    static func candidates(for term: String) -> [String] {
        let colourful = term.contains("256") || term.contains("kitty") || term.contains("ghostty") || term.contains("wezterm")
            || term.contains("alacritty") || term.contains("foot") || term.contains("direct") || term.contains("truecolor")
        if term.hasPrefix("tmux") || term.hasPrefix("screen") {
            return (colourful ? ["tmux-256color", "screen-256color"] : []) + ["screen", "xterm-256color", "xterm", "vt100"]
        }
        return (colourful ? ["xterm-256color"] : []) + ["xterm", "xterm-256color", "vt100"]
    }
}
