import FileSystemKit

/// `F`: finding names below the folder as the user types. The walk and the ranking run off the
/// UI thread (`FileFinder`); the state keeps the query, the last report and the cursor in it.
public struct FindState: Sendable, Equatable {
    /// The folder searched below.
    public let root: String
    public internal(set) var query = ""
    /// What the finder last said (the best matches, how many, how far the walk is).
    public internal(set) var report: FileFinder.Report?
    /// The match under the cursor.
    public internal(set) var cursor = 0
    /// Looking inside the files (ripgrep) instead of at their names (Tab switches).
    public internal(set) var insideFiles = false
    /// Numbers each search, so that a closed one's late reports are dropped.
    let ticket: Int

    /// The absolute path of the match under the cursor.
    public var chosen: String? {
        guard let best = report?.best, best.indices.contains(cursor) else { return nil }
        // A remote tab's top ("ssh://nas/") ends with its slash as "/" does.
        return (root.hasSuffix("/") ? root : root + "/") + best[cursor]
    }
}
