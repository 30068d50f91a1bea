/// A tab: a place the user keeps open beside the one shown, with its own cursor, filter, sort,
/// view and history. The tab shown lives in the state itself; the others wait here.
public struct BrowserTab: Sendable, Equatable {
    public let folder: String
    /// The entry the cursor was on.
    let selection: [UInt8]?
    let filter: String
    let sort: SortMode
    let view: ViewMode
    let showHidden: Bool
    let history: FolderHistory
}
