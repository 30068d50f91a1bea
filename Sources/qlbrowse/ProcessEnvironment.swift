#if canImport(Glibc)
import Glibc
#endif
import ThumbnailKit

/// Where the program keeps its state, from the XDG variables.
enum ProcessEnvironment {
    static func variable(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    static var home: String { variable("HOME") ?? "/" }

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
        let base = variable("XDG_STATE_HOME") ?? home + "/.local/state"
        let folder = base + "/qlbrowse"
        makeFolders(folder)
        return folder
    }

    /// Workers' standard error (library warnings) goes here, never to the screen; `QLBROWSE_DEBUG=1` shows it.
    static var workerLog: String? {
        if variable("QLBROWSE_DEBUG") != nil { return nil }
        return stateFolder + "/worker.log"
    }

    static func makeFolders(_ path: String) {
        FolderMaker.make(path)
    }
}
