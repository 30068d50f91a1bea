/// Typing a name for `r` or `a`.
public enum PromptAction: Sendable, Equatable {
    case input(String), backspace, move(Int), home, end, accept, cancel
}
