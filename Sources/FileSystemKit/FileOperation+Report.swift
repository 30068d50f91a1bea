import SystemKit
/// The vocabulary of a file operation: its kind, name conflicts and the user's answers, progress,
/// and the report item by item.
extension FileOperation {
    public enum Kind: String, Sendable, Equatable {
        case copy, move, trash, delete
    }

    /// What to do when the destination has something of the same name.
    public enum ConflictChoice: Sendable, Equatable {
        case overwrite, skip, keepBoth
    }

    public struct Conflict: Sendable, Equatable {
        public let source: String
        public let destination: String
        public let destinationIsFolder: Bool
    }

    public struct Progress: Sendable, Equatable {
        public var bytesDone: Int64 = 0
        public var bytesTotal: Int64 = 0
        public var itemsDone = 0
        public var itemsTotal = 0
        public var current = ""
    }

    /// An item copied or moved: from where, to where, and whether one rename did it.
    public struct Placement: Sendable, Equatable {
        public let source: String
        public let target: String
        public let sameVolume: Bool
    }

    /// What happened, item by item (the items the user chose, not every file inside them).
    public struct Report: Sendable, Equatable {
        public var done: [String] = []
        public var skipped: [String] = []
        public var notDone: [String] = []
        public var failures: [String] = []
        /// Temporaries that could not be removed (their volume went away): named so the user can.
        public var leftovers: [String] = []
        /// Temporaries that earlier, killed copies left in the destination, found and removed.
        public var removedLeftovers: [String] = []
        public var trashed: [TrashCan.Item] = []
        /// Where each item copied or moved went (for undo).
        public var placed: [Placement] = []
        public var cancelled = false

        public var summary: String {
            var parts = ["\(done.count) done"]
            if !skipped.isEmpty { parts.append("\(skipped.count) skipped") }
            if !notDone.isEmpty { parts.append("\(notDone.count) not done") }
            // What the user must clean up comes first: a temporary the vanished volume kept.
            if !leftovers.isEmpty { parts.insert("temporary file left (volume gone): " + leftovers.joined(separator: ", "), at: 0) }
            if !removedLeftovers.isEmpty {
                parts.append("removed \(removedLeftovers.count) temporary file\(removedLeftovers.count == 1 ? "" : "s") an interrupted copy had left ("
                             + removedLeftovers.map { TerminalText.escaped(FileOperation.name($0)) }.joined(separator: ", ") + ")")
            }
            return parts.joined(separator: ", ")
        }
    }
}
