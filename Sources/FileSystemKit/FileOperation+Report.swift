import SystemKit
/// The vocabulary of a file operation: its kind, name conflicts and the user's answers, progress,
/// and the report item by item.
extension FileOperation {
    public enum Kind: String, Sendable, Equatable, Codable {
        case copy, move, trash, delete
    }

    /// What to do when the destination has something of the same name.
    public enum ConflictChoice: String, Sendable, Equatable, Codable {
        case overwrite, skip, keepBoth
    }

    public struct Conflict: Sendable, Equatable, Codable {
        public let source: String
        public let destination: String
        public let destinationIsFolder: Bool

        public init(source: String, destination: String, destinationIsFolder: Bool) {
            self.source = source
            self.destination = destination
            self.destinationIsFolder = destinationIsFolder
        }
    }

    public struct Progress: Sendable, Equatable, Codable {
        public var bytesDone: Int64 = 0
        public var bytesTotal: Int64 = 0
        public var itemsDone = 0
        public var itemsTotal = 0
        public var current = ""

        public init(bytesDone: Int64 = 0, bytesTotal: Int64 = 0, itemsDone: Int = 0, itemsTotal: Int = 0, current: String = "") {
            self.bytesDone = bytesDone
            self.bytesTotal = bytesTotal
            self.itemsDone = itemsDone
            self.itemsTotal = itemsTotal
            self.current = current
        }
    }

    /// An item copied or moved: from where, to where, and whether one rename did it.
    public struct Placement: Sendable, Equatable, Codable {
        public let source: String
        public let target: String
        public let sameVolume: Bool

        public init(source: String, target: String, sameVolume: Bool) {
            self.source = source
            self.target = target
            self.sameVolume = sameVolume
        }
    }

    /// What happened, item by item (the items the user chose, not every file inside them).
    public struct Report: Sendable, Equatable, Codable {
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

        public init() {}

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
