import BrowserCore

/// One input event from the terminal.
enum KeyInput: Equatable {
    case key(KeyPress)
    case wheel(Int)
    case click(row: Int, column: Int)
    case resize
    /// The terminal (or tmux pane) has the focus again.
    case focusIn
}
