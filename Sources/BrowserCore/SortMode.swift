import FileSystemKit
import SystemKit

/// How entries are ordered (`s` cycles through them); folders always come first.
public typealias SortMode = EntryOrdering

extension EntryOrdering {
    /// The ordering `s` switches to.
    public var next: SortMode {
        let all = SortMode.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// List or thumbnail grid.
public enum ViewMode: String, Sendable {
    case list, grid
}
