import FileSystemKit

/// What a running `FileOperation` tells its caller and asks of it (`Place.perform`): a taken
/// name to decide (called on the operation's thread, which waits for the answer), progress, and
/// each item moved or removed (so thumbnails follow their files).
public struct FileOperationEvents: Sendable {
    public var resolve: @Sendable (FileOperation.Conflict) -> (FileOperation.ConflictChoice, applyToAll: Bool)
    public var progress: @Sendable (FileOperation.Progress) -> Void
    public var moved: @Sendable (String, String) -> Void
    public var removed: @Sendable (String) -> Void

    public init(resolve: @escaping @Sendable (FileOperation.Conflict) -> (FileOperation.ConflictChoice, applyToAll: Bool) = { _ in (.skip, false) },
                progress: @escaping @Sendable (FileOperation.Progress) -> Void = { _ in },
                moved: @escaping @Sendable (String, String) -> Void = { _, _ in },
                removed: @escaping @Sendable (String) -> Void = { _ in }) {
        self.resolve = resolve
        self.progress = progress
        self.moved = moved
        self.removed = removed
    }
}
