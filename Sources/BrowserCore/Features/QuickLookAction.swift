/// Quick Look: opening it, and moving inside the file it shows.
public enum QuickLookAction: Sendable, Equatable {
    /// Space: Quick Look on the entry under the cursor.
    case open
    /// ↓/↑ a page, a line or a few seconds; PgDn/PgUp a page, a screen or a tenth.
    case step(Int), page(Int)
    /// g (first) or G (last) page, line or time.
    case edge(last: Bool)
    /// A digit of a page or line number to jump to with Enter.
    case digit(String), jump
    /// Long text lines wrap or are cut.
    case toggleWrap
    /// An EPUB, OpenDocument or comic book's members instead of its picture, and back (`m`).
    case toggleMembers
    /// A photo enlarged twice more (+1) or less (-1), and moved (hjkl) while enlarged.
    case zoom(Int), pan(x: Int, y: Int)
    /// Play or pause a video, song or animation (`p`).
    case togglePlay
    /// Play a Live Photo's movie instead of its still (`p` on the still).
    case playMotion
}
