/// Getting back to places: the folder history (`H`/`L`) and bookmarks (`b`, `'`, `B`).
public enum PlacesAction: Sendable, Equatable {
    /// `H`/`L`: the folder before or after this one in the history.
    case historyBack, historyForward
    /// `b`, `'`: the next key sets or names a bookmark; `B`: the bookmarks list.
    case startBookmark, startJump, toggleBookmarks
    /// The key that answers a `KeyQuestion`.
    case keyAnswer(String)
    /// Esc while a key is awaited.
    case cancelKeyQuestion
    /// `d` in the bookmarks list.
    case deleteBookmark
}
