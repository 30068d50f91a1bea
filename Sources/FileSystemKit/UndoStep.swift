/// One thing the user did to files, as it can be undone: what to do to take it back, each part
/// with what the file must still be for that to lose nothing.
public struct UndoStep: Sendable, Equatable, Codable {
    /// What was done, for messages: "rename a.jpg", "move 3 items to photos", "bulk rename 12 names".
    public let title: String
    /// What undoes it, in the order to do it.
    public let actions: [UndoAction]

    public init(title: String, actions: [UndoAction]) {
        self.title = title
        self.actions = actions
    }
}

/// One part of undoing (or redoing) a step.
public enum UndoAction: Sendable, Equatable, Codable {
    /// `from` goes back to `to` on the same volume, with one rename (never over something there).
    case rename(from: String, to: String, expected: PathStamp)
    /// `from` goes back to `to` across volumes: copied, checked, then removed.
    case move(from: String, to: String, expected: PathStamp)
    /// What a copy or a new file made goes (to the Trash, so that nothing is lost).
    case discard(String, expected: PathStamp)
    /// What went to the Trash comes back.
    case restore(TrashCan.Item)
    /// Renames that must happen together (a bulk rename with a swap): all or none.
    case renames([Rename])

    /// One name of a bulk rename.
    public struct Rename: Sendable, Equatable, Codable {
        public let from: String
        public let to: String
        public let expected: PathStamp

        public init(from: String, to: String, expected: PathStamp) {
            self.from = from
            self.to = to
            self.expected = expected
        }
    }
}
