import FileSystemKit
import SystemKit
import ThumbnailKit

/// What crosses a route both ways: paths the browser names (with a remote's prefix) going in,
/// items, trashed items, reports and events coming back with the prefix put back.
extension PlaceRouter.Route {
    func outer(_ item: PlaceItem) -> PlaceItem {
        prefix == nil ? item : PlaceItem(path: outer(item.path), isDirectory: item.isDirectory, isSymbolicLink: item.isSymbolicLink,
                                         isRegularFile: item.isRegularFile, size: item.size, modified: item.modified, mode: item.mode)
    }

    func inner(_ item: PlaceItem) -> PlaceItem {
        prefix == nil ? item : PlaceItem(path: inner(item.path), isDirectory: item.isDirectory, isSymbolicLink: item.isSymbolicLink,
                                         isRegularFile: item.isRegularFile, size: item.size, modified: item.modified, mode: item.mode)
    }

    func outer(_ item: TrashCan.Item) -> TrashCan.Item {
        prefix == nil ? item : TrashCan.Item(originalPath: outer(item.originalPath), trashedPath: outer(item.trashedPath), infoPath: outer(item.infoPath))
    }

    func inner(_ item: TrashCan.Item) -> TrashCan.Item {
        prefix == nil ? item : TrashCan.Item(originalPath: inner(item.originalPath), trashedPath: inner(item.trashedPath), infoPath: inner(item.infoPath))
    }

    /// Events for the place behind this route, telling the caller's events in the caller's paths
    /// (`destination` names where copies go, when that is another route). A remote's thumbnails
    /// follow its files there: nothing moves in this computer's cache for them.
    func events(_ outerEvents: FileOperationEvents, destination: PlaceRouter.Route? = nil) -> FileOperationEvents {
        guard prefix != nil || destination?.prefix != nil else { return outerEvents }
        let into = destination ?? self
        return FileOperationEvents(resolve: { conflict in
            outerEvents.resolve(FileOperation.Conflict(source: outer(conflict.source), destination: into.outer(conflict.destination),
                                                       destinationIsFolder: conflict.destinationIsFolder))
        }, progress: { progress in
            var shown = progress
            shown.current = outer(progress.current)
            outerEvents.progress(shown)
        }, moved: { _, _ in }, removed: { _ in })
    }

    /// `report` of an operation run on this route's place (into `destination`'s, for a transfer),
    /// in the caller's paths.
    func outer(_ report: FileOperation.Report, destination: PlaceRouter.Route? = nil) -> FileOperation.Report {
        let into = destination ?? self
        guard prefix != nil || into.prefix != nil else { return report }
        var shown = report
        shown.done = report.done.map(outer)
        shown.skipped = report.skipped.map(outer)
        shown.notDone = report.notDone.map(outer)
        shown.leftovers = report.leftovers.map(into.outer)
        shown.removedLeftovers = report.removedLeftovers.map(into.outer)
        shown.trashed = report.trashed.map(outer)
        shown.placed = report.placed.map { FileOperation.Placement(source: outer($0.source), target: into.outer($0.target), sameVolume: $0.sameVolume) }
        return shown
    }
}

extension PlaceRouter {
    @discardableResult
    public func fetchThumbnails(for items: [PlaceItem], options: ThumbnailOptions,
                                perItem: @escaping @Sendable (PlaceItem, Result<Representation, ThumbnailError>) -> Void,
                                completion: @escaping @Sendable (ThumbnailError?) -> Void) -> PlaceProgress {
        // Items of one place in one call, in the order asked; each answer named as it was asked.
        var groups: [(route: Route, items: [PlaceItem])] = []
        for item in items {
            guard let route = try? route(item.path) else {
                perItem(item, .failure(ThumbnailError(.unsupported, "not connected to \(PlacePath.host(item.path) ?? item.path)")))
                continue
            }
            if let index = groups.firstIndex(where: { $0.route.prefix == route.prefix }) {
                groups[index].items.append(item)
            } else {
                groups.append((route, [item]))
            }
        }
        guard !groups.isEmpty else {
            completion(nil)
            return PlaceProgress(totalCount: items.count)
        }
        if groups.count == 1, groups[0].route.prefix == nil {
            return local.fetchThumbnails(for: items, options: options, perItem: perItem, completion: completion)
        }
        let pending = Counter(groups.count)
        var parts: [PlaceProgress] = []
        for (route, asked) in groups {
            parts.append(route.place.fetchThumbnails(for: asked.map(route.inner), options: options, perItem: { item, result in
                perItem(route.outer(item), result)
            }, completion: { error in
                if pending.finishOne(error) { completion(pending.firstError) }
            }))
        }
        let all = parts
        return PlaceProgress(totalCount: items.count) { all.forEach { $0.cancel() } }
    }

    public func thumbnailFolders(_ roots: [String], options: BatchOptions) -> AsyncStream<ThumbnailBatch.Event> {
        guard let first = roots.first, let route = try? route(first) else { return local.thumbnailFolders(roots, options: options) }
        guard route.prefix != nil else { return local.thumbnailFolders(roots, options: options) }
        let inner = route.place.thumbnailFolders(roots.map(route.inner), options: options)
        return AsyncStream { continuation in
            let task = Task {
                for await event in inner {
                    switch event {
                    case .found: continuation.yield(event)
                    case .unlisted(let folders): continuation.yield(.unlisted(folders.map { (route.outer($0.folder), $0.reason) }))
                    case .file(let path, let outcome): continuation.yield(.file(path: route.outer(path), outcome: outcome))
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
