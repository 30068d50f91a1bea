import BrowserCore

/// One input event from the terminal.
enum KeyInput: Equatable {
    case key(KeyPress)
    case wheel(Int)
    /// The first button pressed (or clicked) here.
    case click(row: Int, column: Int)
    /// The pointer moved here (with the button held: a drag).
    case drag(row: Int, column: Int)
    /// The first button released here.
    case release(row: Int, column: Int)
    case resize
    /// The terminal (or tmux pane) has the focus again.
    case focusIn
}
