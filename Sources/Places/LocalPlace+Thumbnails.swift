import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit

extension LocalPlace {
    @discardableResult
    public func fetchThumbnails(for items: [PlaceItem], options: ThumbnailOptions,
                                perItem: @escaping @Sendable (PlaceItem, Result<Representation, ThumbnailError>) -> Void,
                                completion: @escaping @Sendable (ThumbnailError?) -> Void) -> PlaceProgress {
        // Without a generator of the caller's, only icons are made: drawn here, never by a worker.
        let generator = thumbnails ?? ThumbnailGenerator(pool: WorkerPool(size: 1))
        let types = thumbnails == nil ? options.types.intersection([.icon]) : options.types
        let shared = Shared()
        let progress = PlaceProgress(totalCount: items.count) { shared.task.withLock { $0 }?.cancel() }
        let task = Task.detached(priority: .utility) { [self] in
            // `concurrency` lanes, each taking the next item until none is left or the caller cancels.
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<min(options.concurrency, max(items.count, 1)) {
                    group.addTask {
                        while let index = shared.next.withLock({ index -> Int? in
                            guard index < items.count else { return nil }
                            index += 1
                            return index - 1
                        }) {
                            let item = items[index]
                            let result = progress.isCancelled ? .failure(ThumbnailError(.cancelled, "cancelled"))
                                : await self.thumbnail(of: item, types: types, options: options, generator: generator)
                            progress.completeOne()
                            perItem(item, result)
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

    /// One item's best picture, if its version is still the one asked for.
    private func thumbnail(of item: PlaceItem, types: Set<RepresentationType>, options: ThumbnailOptions,
                           generator: ThumbnailGenerator) async -> Result<Representation, ThumbnailError> {
        do throws(FileSystemError) {
            let now = try await self.item(at: item.path)
            guard now.version == item.version else { return .failure(ThumbnailError(.unreadable, "the file changed since it was listed")) }
        } catch {
            return .failure(ThumbnailError(error.code == .cancelled ? .cancelled : .unreadable, error.message))
        }
        do {
            return .success(try await generator.bestRepresentation(for: ThumbnailRequest(path: item.path, size: options.size, scale: options.scale, types: types)))
        } catch let error as ThumbnailError {
            return .failure(error)
        } catch {
            return .failure(ThumbnailError(.cancelled, "cancelled"))
        }
    }
}
