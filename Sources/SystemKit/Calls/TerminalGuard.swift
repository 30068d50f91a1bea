internal import CSystem

/// Keeps the terminal usable if the program crashes: saves its settings and installs handlers
/// for SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL and SIGQUIT that restore them, leave the
/// alternate screen and mouse modes, then re-raise the signal.
public enum TerminalGuard {
    /// Saves the terminal settings of standard input and installs the crash handlers.
    public static func install() { CSystem_guard_terminal() }
}
