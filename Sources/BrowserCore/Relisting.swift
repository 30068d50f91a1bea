import FileSystemKit

/// The current folder listed again (after a file operation, or a change its watch saw) while
/// the listing on screen stays: the new entries are gathered here and replace the shown ones
/// only once they are all in. A key pressed meanwhile acts on the entry the user sees, not on
/// an empty list that is filling again (a `d` right after a paste was lost that way).
struct Relisting: Sendable, Equatable {
    /// The listing's ticket (`BrowserState.ticket` when it was asked for).
    let ticket: Int
    /// The entry the cursor goes to once listed (nil: the one it is on then).
    let select: [UInt8]?
    /// Whether what the operation made must be seen: a kept filter goes (one being typed stays).
    let showsAll: Bool
    /// The filter when the relisting was asked for: only that one goes with `showsAll`. One the
    /// user set since (typed once the operation's message showed) is theirs and stays.
    let filterAsked: String
    /// Whether the marks stay (a change the folder's watch saw; not after an operation).
    let keepsMarks: Bool
    /// What arrived so far.
    var store = EntryStore()
}
