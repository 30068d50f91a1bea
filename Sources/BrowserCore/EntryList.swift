import FileSystemKit
import SystemKit

/// The entries shown, in order: a view over the packed store that makes an `Entry` only for
/// the positions read (the rows on screen), never for the whole folder.
public struct EntryList: RandomAccessCollection, Sendable, Equatable {
    let store: EntryStore
    let order: [EntryHandle]

    public var startIndex: Int { 0 }
    public var endIndex: Int { order.count }
    public subscript(position: Int) -> Entry { store.entry(order[position]) }

    /// How many of the shown entries are folders, without making any entry.
    public var folderCount: Int { store.folderCount(in: order) }
}
