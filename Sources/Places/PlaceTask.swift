import Synchronization

/// A piece of work a place runs for a caller (a listing): cancellable from any thread; once
/// cancelled it reports nothing more.
public final class PlaceTask: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let onCancel: @Sendable () -> Void

    /// `onCancel` runs once, on the first `cancel()`.
    public init(onCancel: @escaping @Sendable () -> Void = {}) {
        self.onCancel = onCancel
    }

    public func cancel() {
        guard !cancelled.exchange(true, ordering: .relaxed) else { return }
        onCancel()
    }

    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}

/// How far a `fetchThumbnails` call is, as the `Progress` File Provider returns: items done of
/// items asked, and `cancel()` to stop the rest (they complete with `.cancelled`).
public final class PlaceProgress: Sendable {
    /// How many items were asked for.
    public let totalCount: Int
    private let done = Atomic<Int>(0)
    private let task: PlaceTask

    public init(totalCount: Int, onCancel: @escaping @Sendable () -> Void = {}) {
        self.totalCount = totalCount
        self.task = PlaceTask(onCancel: onCancel)
    }

    /// Items finished (with a picture or without).
    public var completedCount: Int { done.load(ordering: .relaxed) }
    public var isCancelled: Bool { task.isCancelled }
    public func cancel() { task.cancel() }

    /// Counts one item finished (for places).
    public func completeOne() { done.add(1, ordering: .relaxed) }
}
