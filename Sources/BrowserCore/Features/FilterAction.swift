/// The filter typed after `/`.
public enum FilterAction: Sendable, Equatable {
    case start, input(String), backspace, accept, cancel
}
