import SystemKit
/// A bulk rename checked before anything moves: the names as edited (one per line, in the order
/// given) against the names as they were, the folder's other names and what its volume allows.
/// Either every rename is possible, all at once (swaps and cycles such as a↔b included), or
/// nothing is done and each problem is named.
public struct BulkRenamePlan: Sendable, Equatable {
    /// The renames, old name to new, only those that change.
    public let changes: [Change]
    public let problems: [String]

    public struct Change: Sendable, Equatable {
        public let from: String
        public let to: String

        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    /// `names` as they are, `edited` as the user left them (line by line), `others` the folder's
    /// names not being renamed, `capabilities` what the volume allows (when known).
    public init(names: [String], edited: [String], others: Set<String>, capabilities: VolumeCapabilities?) {
        var problems: [String] = []
        var lines = edited
        while lines.count > names.count, lines.last?.allSatisfy({ $0 == " " || $0 == "\t" }) == true { lines.removeLast() }
        guard lines.count == names.count else {
            self.changes = []
            self.problems = ["the list has \(lines.count) line\(lines.count == 1 ? "" : "s") for \(names.count) name\(names.count == 1 ? "" : "s"): keep one line per name, in the same order"]
            return
        }
        let caseless = capabilities?.isCaseInsensitive == true
        // Names compare as bytes: Swift's String equality would take NFC and NFD spellings (two
        // files on Linux) for one name.
        let key: (String) -> [UInt8] = { caseless ? Array($0.lowercased().utf8) : Array($0.utf8) }
        let same: (String, String) -> Bool = { $0.utf8.elementsEqual($1.utf8) }
        var changes: [Change] = []
        var taken: [[UInt8]: String] = [:]
        for (index, (old, new)) in zip(names, lines).enumerated() {
            let line = index + 1
            if new.isEmpty { problems.append("line \(line) (\(old)) is empty"); continue }
            if new == "." || new == ".." || new.contains("/") || new.contains("\0") {
                problems.append("line \(line): \"\(new)\" cannot be a name (no /, not . or ..)")
                continue
            }
            if new.fileSystemBytes.count > (capabilities?.nameMax ?? 255) { problems.append("line \(line): \"\(new)\" is longer than this volume allows"); continue }
            if !same(new, old), let problem = capabilities?.problem(withName: new) { problems.append("line \(line): \(problem)"); continue }
            if let earlier = taken[key(new)] {
                problems.append("\(earlier) and \(old) would both be named \"\(new)\"")
                continue
            }
            taken[key(new)] = old
            if !same(new, old) { changes.append(Change(from: old, to: new)) }
        }
        let others = Set(others.map(key))
        for change in changes where others.contains(key(change.to)) {
            problems.append("\"\(change.to)\" is already in the folder (it is not in the list)")
        }
        self.changes = problems.isEmpty ? changes : []
        self.problems = problems
    }
}
