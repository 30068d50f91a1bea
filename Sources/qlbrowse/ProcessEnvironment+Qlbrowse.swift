import SystemKit
import ThumbnailKit

/// Where qlbrowse keeps its state, and what it reads from the environment, on top of SystemKit's
/// `ProcessEnvironment` (which has the XDG folders with their defaults).
extension ProcessEnvironment {
    /// The variables that say which terminal this is (for choosing how to draw pictures).
    static var terminalVariables: [String: String] {
        var found: [String: String] = [:]
        for name in ["TERM", "COLORTERM", "TERM_PROGRAM", "LC_TERMINAL", "KITTY_WINDOW_ID", "TMUX", "TMUX_PANE"] {
            found[name] = variable(name)
        }
        return found
    }

    /// `$XDG_STATE_HOME/qlbrowse` (else `~/.local/state/qlbrowse`), created on demand.
    static var stateFolder: String {
        let folder = current.stateHome + "/qlbrowse"
        FolderMaker.make(folder)
        return folder
    }

    /// Workers' standard error (library warnings) goes here, never to the screen; `QLBROWSE_DEBUG=1` shows it.
    static var workerLog: String? {
        if variable("QLBROWSE_DEBUG") != nil { return nil }
        return stateFolder + "/worker.log"
    }
}
