import ThumbnailKit

/// How entries are ordered; folders always come first.
public enum SortMode: String, Sendable, CaseIterable {
    case name, size, time, kind

    public var next: SortMode {
        let all = SortMode.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// Whether `a` sorts before `b`.
    public func less(_ a: Entry, _ b: Entry) -> Bool {
        if a.isDirectory != b.isDirectory { return a.isDirectory }
        switch self {
        case .name: break
        case .size: if a.size != b.size { return a.size > b.size }
        case .time: if a.modified != b.modified { return a.modified > b.modified }
        case .kind:
            if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
            let ea = a.sortKey.lastIndex(of: UInt8(ascii: ".")).map { a.sortKey[$0...] } ?? [], eb = b.sortKey.lastIndex(of: UInt8(ascii: ".")).map { b.sortKey[$0...] } ?? []
            if ea != eb { return ea.lexicographicallyPrecedes(eb) }
        }
        let order = NaturalOrder.compareKeys(a.sortKey, b.sortKey)
        if order != 0 { return order < 0 }
        return a.nameBytes.lexicographicallyPrecedes(b.nameBytes)
    }
}

/// List or thumbnail grid.
public enum ViewMode: String, Sendable {
    case list, grid
}
