import FileSystemKit

/// The answers to the questions the browser asks over the list: `D`'s yes, a taken name's
/// overwrite, skip or keep both, and the bulk rename's go-ahead.
public enum AnswerAction: Sendable, Equatable {
    case confirmDelete
    case conflict(FileOperation.ConflictChoice, applyToAll: Bool)
    case confirmBulkRename
}
