import Synchronization
import ThumbnailKit

/// How a place fetches many items' thumbnails (`Place.fetchThumbnails`): a detached task runs
/// `lanes` lanes, each taking the next item until none is left; the progress it returns cancels
/// that task, and `completion` hears "cancelled" when the caller cancelled. Shared by the local
/// and the remote place, which differ only in how one item is made.
enum FetchLanes {
    static func run(count: Int, lanes: Int, priority: TaskPriority,
                    item: @escaping @Sendable (Int, PlaceProgress) async -> Void,
                    completion: @escaping @Sendable (ThumbnailError?) -> Void) -> PlaceProgress {
        let shared = Shared()
        let progress = PlaceProgress(totalCount: count) { shared.task.withLock { $0 }?.cancel() }
        let task = Task.detached(priority: priority) {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<min(lanes, max(count, 1)) {
                    group.addTask {
                        while let index = shared.next.withLock({ next -> Int? in
                            guard next < count else { return nil }
                            next += 1
                            return next - 1
                        }) {
                            await item(index, progress)
                        }
                    }
                }
            }
            completion(progress.isCancelled ? ThumbnailError(.cancelled, "cancelled") : nil)
        }
        shared.task.withLock { $0 = task }
        if progress.isCancelled { task.cancel() }
        return progress
    }

    /// What the lanes of one fetch share: the next item to take, and the task to cancel.
    private final class Shared: Sendable {
        let next = Mutex(0)
        let task = Mutex<Task<Void, Never>?>(nil)
    }
}
