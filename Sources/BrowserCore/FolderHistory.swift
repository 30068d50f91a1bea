/// The folders visited, for `H` and `L`: back and forward as in a web browser, each folder with
/// the entry the cursor was on when it was left, so that going back lands where the user was.
public struct FolderHistory: Sendable, Equatable {
    public struct Stop: Sendable, Equatable {
        public let folder: String
        public internal(set) var selection: [UInt8]?
    }

    public private(set) var stops: [Stop]
    public private(set) var index = 0
    /// Folders remembered at most; the oldest go first.
    static let limit = 200

    init(start folder: String) {
        stops = [Stop(folder: folder)]
    }

    public var canGoBack: Bool { index > 0 }
    public var canGoForward: Bool { index < stops.count - 1 }

    /// The folder shown is left with the cursor on `name`.
    mutating func leave(selecting name: [UInt8]?) {
        stops[index].selection = name
    }

    /// A new folder is shown (not by going back or forward): what was ahead is dropped.
    mutating func visit(_ folder: String) {
        guard stops[index].folder != folder else { return }
        stops.removeSubrange((index + 1)...)
        stops.append(Stop(folder: folder))
        if stops.count > Self.limit { stops.removeFirst(stops.count - Self.limit) }
        index = stops.count - 1
    }

    /// One folder back (or forward), or nil at the end.
    mutating func step(back: Bool) -> Stop? {
        guard back ? canGoBack : canGoForward else { return nil }
        index += back ? -1 : 1
        return stops[index]
    }
}
