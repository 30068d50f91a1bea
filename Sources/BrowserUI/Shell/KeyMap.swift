import BrowserCore

/// Which key runs which command: vi keys and arrows by default, with the user's `[keys]` table
/// from config.toml on top (`"x" = "quit"`, `"ctrl-d" = "page-down"`, `"q" = "none"` to unbind).
public struct KeyMap: Sendable, Equatable {
    private(set) var bindings: [String: Command]

    public static let standard = KeyMap(bindings: [
        "j": .move(.down), "down": .move(.down), "k": .move(.up), "up": .move(.up),
        "h": .move(.left), "left": .move(.left), "l": .move(.right), "right": .move(.right),
        "backspace": .move(.parent), "enter": .move(.open),
        "g": .move(.top), "home": .move(.top), "G": .move(.bottom), "end": .move(.bottom),
        "pgdn": .move(.pageDown), "pgup": .move(.pageUp), "ctrl-f": .move(.pageDown), "ctrl-b": .move(.pageUp),
        "/": .list(.filter), ".": .list(.hidden), "s": .list(.sort), "e": .list(.extensions), "v": .list(.view),
        "space": .screen(.quickLook), "?": .screen(.help), "q": .screen(.quit), "V": .screen(.volumes), "T": .jobs(.batch), "J": .jobs(.jobs), "c": .jobs(.cancel),
        "m": .files(.mark), "tab": .files(.mark), "*": .files(.invertMarks), "u": .files(.unmark), "y": .files(.copy), "x": .files(.cut), "p": .files(.paste),
        "r": .files(.rename), "a": .files(.create), "d": .files(.trash), "D": .files(.delete), "U": .files(.restore), "ctrl-l": .screen(.redraw), "ctrl-r": .screen(.reload),
        "b": .places(.bookmark), "'": .places(.jumpToBookmark), "B": .places(.bookmarks), "H": .places(.back), "L": .places(.forward),
        "F": .places(.find), "z": .files(.undo), "Z": .files(.redo), "R": .files(.bulkRename), "t": .tabs(.newTab), "]": .tabs(.nextTab), "[": .tabs(.previousTab), "w": .tabs(.closeTab),
    ])

    /// Binds `key` (a character, or space, enter, backspace, tab, up, down, left, right, pgup, pgdn,
    /// home, end, ctrl-a … ctrl-z) to `command`, or unbinds it with "none". Returns a problem to
    /// report, or nil.
    public mutating func bind(_ key: String, to command: String) -> String? {
        guard Self.isKeyName(key) else { return "unknown key \"\(key)\" (a character, or space, enter, backspace, tab, arrows, pgup, pgdn, home, end, ctrl-a…ctrl-z)" }
        if command == "none" {
            bindings[key] = nil
            return nil
        }
        guard let known = Command(rawValue: command) else {
            return "unknown command \"\(command)\" for key \"\(key)\" (one of: \(Command.allCases.map(\.rawValue).joined(separator: ", ")), none)"
        }
        bindings[key] = known
        return nil
    }

    func command(for key: KeyPress) -> Command? { Self.name(of: key).flatMap { bindings[$0] } }

    /// The keys bound to `command`, for the help screen.
    public func keys(for command: Command) -> [String] {
        bindings.filter { $0.value == command }.map(\.key).sorted { (Self.order($0), $0) < (Self.order($1), $1) }
    }

    private static let specialNames: [String] = ["space", "enter", "backspace", "tab", "up", "down", "left", "right", "pgup", "pgdn", "home", "end"]

    private static func order(_ name: String) -> Int { name.count == 1 ? 0 : name.hasPrefix("ctrl-") ? 2 : 1 }

    static func isKeyName(_ name: String) -> Bool {
        if name.count == 1 { return name.unicodeScalars.first.map { $0.value >= 0x21 && $0.value != 0x7F } ?? false }
        if specialNames.contains(name) { return true }
        if name.hasPrefix("ctrl-"), name.count == 6, let letter = name.last, letter.isASCII, letter.isLowercase { return true }
        return false
    }

    /// The config name of a key press, or nil for keys that cannot be bound.
    static func name(of key: KeyPress) -> String? {
        switch key {
        case .special(let special): return special.rawValue
        case .character(let value):
            switch value {
            case 13, 10: return "enter"
            case 127, 8: return "backspace"
            case 9: return "tab"
            case 32: return "space"
            case 1...26: return "ctrl-" + String(UnicodeScalar(UInt8(value) + 0x60))
            default: return Unicode.Scalar(value).map { String(Character($0)) }
            }
        }
    }
}
