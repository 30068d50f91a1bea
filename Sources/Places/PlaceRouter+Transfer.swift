import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit

/// File operations through the router: on one place, that place's own `perform` (the caller's
/// operation itself on this computer, so a local-only browser runs exactly as before); a copy or
/// move whose sources are on another place than the destination, a `PlaceTransfer` between the
/// two, written down in a `TransferJournal` as it goes.
///
/// A move between places is `PlaceTransfer.move`: that copy, then each source whose copy was put
/// in place goes to its own place's trash (so the move can be undone), and no other: an item whose
/// copy failed, was skipped or cancelled stays where it was, so nothing is lost however it ends.
extension PlaceRouter {
    public func perform(_ operation: FileOperation, events: FileOperationEvents) async throws(FileSystemError) -> FileOperation.Report {
        var groups: [(route: Route, sources: [String])] = []
        for source in operation.sources {
            let route = try route(source)
            if let index = groups.firstIndex(where: { $0.route.prefix == route.prefix }) {
                groups[index].sources.append(route.path)
            } else {
                groups.append((route, [route.path]))
            }
        }
        let destination = try operation.destination.map { path throws(FileSystemError) in try route(path) }
        if groups.count <= 1, groups.first?.route.prefix == nil, destination?.prefix == nil {
            return try await local.perform(operation, events: events)
        }
        var report = FileOperation.Report()
        for (route, sources) in groups {
            let part: FileOperation.Report
            if let destination, destination.prefix != route.prefix, operation.kind == .copy || operation.kind == .move {
                part = await transfer(operation, sources: sources, from: route, to: destination, events: events)
            } else {
                let inner = FileOperation(kind: operation.kind, sources: sources, destination: destination?.path, verifiesContent: operation.verifiesContent,
                                          deletesSourcesForGood: operation.deletesSourcesForGood)
                let follower = Self.follow(operation, inner)
                defer { follower.cancel() }
                part = route.outer(try await route.place.perform(inner, events: route.events(events, destination: destination)), destination: destination)
            }
            report.merge(part)
        }
        return report
    }

    /// What the status line calls the place a move of `sources` into `destination` would delete
    /// originals on for good: one without a trash (SFTP) when the destination is on another
    /// place (within one place a move is a rename). Nil when every source can go to a trash.
    public func placeWithoutTrash(movingFrom sources: [String], to destination: String) -> String? {
        guard let target = try? route(destination) else { return nil }
        for source in sources {
            guard let route = try? route(source), route.prefix != target.prefix, !route.place.hasTrash else { continue }
            return label(for: source) ?? route.place.name
        }
        return nil
    }

    /// Copies `sources` (paths on `from`'s place) into `to`'s folder; for a move, then trashes
    /// each source whose copy is in place. The report in the caller's paths.
    func transfer(_ operation: FileOperation, sources: [String], from: Route, to: Route, events: FileOperationEvents) async -> FileOperation.Report {
        let inner = FileOperation(kind: operation.kind, sources: sources, destination: to.path, verifiesContent: operation.verifiesContent,
                                  deletesSourcesForGood: operation.deletesSourcesForGood)
        let follower = Self.follow(operation, inner)
        defer { follower.cancel() }
        let journal = TransferJournal(kind: operation.kind, from: from.place.name, to: to.place.name, destination: to.path, sources: sources)
        let transfer = PlaceTransfer(from: from.place, to: to.place), relayed = from.events(events, destination: to)
        let report = operation.kind == .move ? await transfer.move(inner, events: relayed, journal: journal)
            : await transfer.copy(inner, events: relayed, journal: journal)
        return from.outer(report, destination: to)
    }

    /// Carries the caller's pause and cancel over to `inner` (the same operation in a place's
    /// own paths) until the returned task is cancelled.
    static func follow(_ outer: FileOperation, _ inner: FileOperation) -> Task<Void, Never> {
        Task.detached {
            while !Task.isCancelled {
                if outer.isCancelled { inner.cancel() }
                if inner.isPaused != outer.isPaused { inner.setPaused(outer.isPaused) }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Counts the parts of a call spread over several places; the first failure is kept.
    final class Counter: Sendable {
        private let state: Mutex<(left: Int, error: ThumbnailError?)>
        init(_ parts: Int) { state = Mutex((parts, nil)) }

        /// One part ended (with `error`, if any); true when it was the last.
        func finishOne(_ error: ThumbnailError?) -> Bool {
            state.withLock { state in
                if state.error == nil { state.error = error }
                state.left -= 1
                return state.left == 0
            }
        }

        var firstError: ThumbnailError? { state.withLock { $0.error } }
    }
}

extension FileOperation.Report {
    /// Adds `other`'s items to this report (one operation run on several places).
    mutating func merge(_ other: FileOperation.Report) {
        done += other.done
        skipped += other.skipped
        notDone += other.notDone
        failures += other.failures
        leftovers += other.leftovers
        removedLeftovers += other.removedLeftovers
        trashed += other.trashed
        placed += other.placed
        cancelled = cancelled || other.cancelled
    }
}
