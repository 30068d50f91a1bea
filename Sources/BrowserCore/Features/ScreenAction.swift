/// The screen as a whole: the help, closing what is open, quitting, and the terminal.
public enum ScreenAction: Sendable, Equatable {
    case help, closeOverlay, quit
    /// Ctrl-L, or the terminal's focus coming back: everything drawn again, pictures included.
    case redraw
    /// Ctrl-R: the folder listed again now, the cursor, filter and marks kept (as its watch does).
    case reload
    case resize(rows: Int, columns: Int)
}
