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
        return FetchLanes.run(count: items.count, lanes: options.concurrency, priority: options.priority, item: { [self] index, progress in
            await make(items[index], types: types, options: options, generator: generator, progress: progress, perItem: perItem)
        }, completion: completion)
    }

    /// One item's pictures to `perItem`: its best, or with `progressive` each as it is made.
    private func make(_ item: PlaceItem, types: Set<RepresentationType>, options: ThumbnailOptions, generator: ThumbnailGenerator,
                      progress: PlaceProgress, perItem: @escaping @Sendable (PlaceItem, Result<Representation, ThumbnailError>) -> Void) async {
        defer { progress.completeOne() }
        if progress.isCancelled { return perItem(item, .failure(ThumbnailError(.cancelled, "cancelled"))) }
        if options.checksVersion, let failure = await changed(item) { return perItem(item, .failure(failure)) }
        var request = ThumbnailRequest(path: item.path, size: options.size, scale: options.scale, types: types)
        request.maximumIconSide = options.maximumIconSide
        // Pictures shown as they come: every tile's embedded preview before any full decode.
        request.cheapPictureFirst = options.progressive
        do {
            if options.progressive {
                for try await representation in generator.representations(for: request) { perItem(item, .success(representation)) }
            } else {
                perItem(item, .success(try await generator.bestRepresentation(for: request)))
            }
        } catch let error as ThumbnailError {
            perItem(item, .failure(error))
        } catch {
            perItem(item, .failure(ThumbnailError(.cancelled, "cancelled")))
        }
    }

    /// Why the item is no longer the version asked for (changed, gone), or nil when it is.
    private func changed(_ item: PlaceItem) async -> ThumbnailError? {
        do throws(FileSystemError) {
            let now = try await self.item(at: item.path)
            return now.version == item.version ? nil : ThumbnailError(.unreadable, "the file changed since it was listed")
        } catch {
            return ThumbnailError(error.code == .cancelled ? .cancelled : .unreadable, error.message)
        }
    }

    public func thumbnailFolders(_ roots: [String], options: BatchOptions) -> AsyncStream<ThumbnailBatch.Event> {
        let workers = batchWorkers ?? WorkerPool(size: options.jobs)
        let ownsWorkers = batchWorkers == nil
        let cache = ThumbnailCache(writesShared: options.writesShared, ignoresStored: options.ignoresStored)
        let batch = ThumbnailBatch(generator: ThumbnailGenerator(workers: workers, cache: cache), cache: cache, box: options.box,
                                   jobs: options.jobs, shard: options.shard)
        guard ownsWorkers else { return batch.run(roots) }
        // A pool made for this batch goes with it.
        let (stream, continuation) = AsyncStream<ThumbnailBatch.Event>.makeStream()
        let task = Task {
            for await event in batch.run(roots) { continuation.yield(event) }
            continuation.finish()
            await workers.shutdown(waitSeconds: 2)
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
