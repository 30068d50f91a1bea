/// A line of text the user is typing: a new name for `r`, a name to create for `a`. Renaming
/// starts with the whole name and the part before the extension selected, so typing replaces
/// the name and keeps `.jpg`.
public struct TextPrompt: Sendable, Equatable {
    public enum Purpose: Sendable, Equatable {
        /// Renaming the entry with this name.
        case rename(String)
        /// Making a file, or a folder when the text ends in `/`.
        case create
        /// A server's address to connect to (`C` in the volumes view).
        case connect
        /// The password for the server at this address: drawn masked, never kept.
        case password(String)
        /// A Markup note's text (Quick Look's markup editor keeps this prompt itself).
        case note
    }

    public let purpose: Purpose
    public private(set) var characters: [Character]
    public private(set) var cursor: Int
    /// Typed text replaces this range first.
    public private(set) var selection: Range<Int>?

    public var text: String { String(characters) }

    public init(purpose: Purpose, text: String = "", selection: Range<Int>? = nil) {
        self.purpose = purpose
        self.characters = Array(text)
        self.selection = selection
        self.cursor = selection?.upperBound ?? characters.count
    }

    /// Renaming `name`: the name before its extension selected (all of it for folders and dot files).
    public static func renaming(_ name: String, isFolder: Bool) -> TextPrompt {
        let characters = Array(name)
        var end = characters.count
        if !isFolder, let dot = characters.lastIndex(of: "."), dot > 0 { end = dot }
        return TextPrompt(purpose: .rename(name), text: name, selection: 0..<end)
    }

    public mutating func insert(_ text: String) {
        removeSelection()
        characters.insert(contentsOf: Array(text), at: cursor)
        cursor += text.count
    }

    public mutating func backspace() {
        if selection != nil { return removeSelection() }
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Moves the cursor by `offset` (clamped); the selection goes.
    public mutating func move(by offset: Int) {
        selection = nil
        cursor = min(max(cursor + offset, 0), characters.count)
    }

    /// Home: the cursor before the first character; the selection goes.
    public mutating func moveToStart() { move(by: -characters.count) }

    /// End: the cursor after the last character; the selection goes.
    public mutating func moveToEnd() { move(by: characters.count) }

    private mutating func removeSelection() {
        guard let range = selection else { return }
        characters.removeSubrange(range)
        cursor = range.lowerBound
        selection = nil
    }
}
