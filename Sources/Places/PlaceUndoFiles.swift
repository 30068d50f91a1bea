import FileSystemKit
import SystemKit

/// The undo journal's calls through the router: this computer's files as they always were
/// (`LocalUndoFiles`, the browser's trash), a remote's through its place — its own `lstat` for
/// the check, its rename, its trash and its restore, its own move across its volumes. A path
/// under a remote not connected (the browser restarted, the link gone) is refused with what to
/// do, and the journal keeps the step.
///
/// The journal runs on a thread of its own (`UndoRunner`): each call here waits for the place's
/// answer, which the place's deadlines bound.
public struct PlaceUndoFiles: UndoFiles {
    public let router: PlaceRouter
    /// What acts on this computer's files.
    public let local: any UndoFiles

    public init(router: PlaceRouter, local: any UndoFiles) {
        self.router = router
        self.local = local
    }

    public func stamp(_ path: String) throws(FileSystemError) -> PathStamp? {
        if router.isThisComputer(path) { return try local.stamp(path) }
        let router = self.router
        return try remote(path) { () async throws(FileSystemError) in try await router.stamp(path) }
    }

    public func rename(_ from: String, to: String) throws(FileSystemError) {
        if router.isThisComputer(from) { return try local.rename(from, to: to) }
        let router = self.router
        _ = try remote(from) { () async throws(FileSystemError) in try await router.rename(from, to: to) }
    }

    public func move(_ from: String, to: String, moved: (String, String) -> Void, removed: (String) -> Void) throws(FileSystemError) {
        if router.isThisComputer(from), router.isThisComputer(to) { return try local.move(from, to: to, moved: moved, removed: removed) }
        let router = self.router
        // The folder `to` is in ("ssh://host" for the remote's root, as the router names it).
        let cut = String(to[..<(to.lastIndex(of: "/") ?? to.startIndex)])
        let folder = cut.isEmpty ? "/" : cut
        let operation = FileOperation(kind: .move, sources: [from], destination: folder)
        let report = try remote(from) { () async throws(FileSystemError) in
            try await router.perform(operation, events: FileOperationEvents(resolve: { _ in (.skip, false) }))
        }
        guard let placed = report.placed.first else {
            throw FileSystemError(code: .other, path: from, context: report.failures.first ?? "\(FileOperation.escapedName(from)) could not be moved back")
        }
        if placed.target != to { _ = try remote(to) { () async throws(FileSystemError) in try await router.rename(placed.target, to: to) } }
    }

    public func trash(_ path: String) throws(FileSystemError) -> TrashCan.Item {
        if router.isThisComputer(path) { return try local.trash(path) }
        let router = self.router
        return try remote(path) { () async throws(FileSystemError) in try await router.trash(path) }
    }

    public func restore(_ item: TrashCan.Item) throws(FileSystemError) -> String {
        if router.isThisComputer(item.originalPath) { return try local.restore(item) }
        let router = self.router
        return try remote(item.originalPath) { () async throws(FileSystemError) in try await router.restore(item) }
    }

    /// Runs `call` (a place call for `path`) and waits for it; a remote not connected is said
    /// in the words the user needs.
    private func remote<Value: Sendable>(_ path: String, _ call: @escaping @Sendable () async throws(FileSystemError) -> Value) throws(FileSystemError) -> Value {
        if let prefix = PlacePath.split(path)?.prefix, router.place(under: prefix) == nil {
            throw FileSystemError(code: .other, path: path, context: "\(TerminalText.escaped(prefix)) is not connected: connect it to undo this")
        }
        return try PlaceCall.wait(call)
    }
}
