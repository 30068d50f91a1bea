/// `F`: find below this folder; typing, moving among the matches, going to one, giving up.
public enum FindAction: Sendable, Equatable {
    case start, input(String), backspace, move(Int), accept, cancel
    /// Tab while finding: names, or what is inside the files.
    case toggleInside
}
