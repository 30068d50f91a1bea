/// A key as the user pressed it, free of any terminal library: a character (control characters
/// included, Esc is 27) or one of the keys that have no character.
public enum KeyPress: Sendable, Equatable, Hashable {
    case character(UInt32)
    case special(SpecialKey)

    /// Keys without a character.
    public enum SpecialKey: String, Sendable, CaseIterable {
        case up, down, left, right, pageUp = "pgup", pageDown = "pgdn", home, end, backspace, enter
    }

    public static let escape = KeyPress.character(27)
    public static let controlC = KeyPress.character(3)

    /// The character typed, for text entry: nil for control characters and special keys.
    public var typedText: String? {
        guard case .character(let value) = self, value >= 32, value != 127, let scalar = Unicode.Scalar(value) else { return nil }
        return String(Character(scalar))
    }

    /// Enter, whether it came as a character or as the keypad's key.
    public var isEnter: Bool { self == .character(13) || self == .character(10) || self == .special(.enter) }
    /// Backspace, whether it came as DEL, ^H or the terminal's key.
    public var isBackspace: Bool { self == .character(127) || self == .character(8) || self == .special(.backspace) }
}
