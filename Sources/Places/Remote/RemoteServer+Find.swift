import FileSystemKit
import SystemKit

extension RemoteServer {
    /// A search for the other side with this side's `LocalPlace.find` (the walk here, this
    /// side's other volumes left out): each report goes back as `.found` under the request's id,
    /// for the first query and each `.findQuery` after, until the cancel, which stops the walk.
    /// `best` and `streams` are the command line's (`qlbrowse find ssh://…`). Returns the
    /// request's cancel.
    func find(_ asked: RemoteRequest.Find, id: UInt64) -> @Sendable () -> Void {
        let search = place.find(under: asked.path, showsHidden: asked.showsHidden, skipping: nil, best: max(1, asked.best ?? 200),
                                streams: asked.streams ?? false) { [self] result in
            switch result {
            case .success(let report): send(.found(report), id: id)
            case .failure(let failure):
                finish(id)
                send(.failure(RemoteFailure(failure)), id: id)
            }
        }
        finders.withLock { $0[id] = search }
        search.search(asked.query)
        search.start()
        return { [self] in
            _ = finders.withLock { $0.removeValue(forKey: id) }
            search.cancel()
        }
    }

    /// A search inside files for the other side: ripgrep here (`LocalPlace.findInside`), its
    /// reports back as `.foundInside`, the complete one ending the request; the cancel kills
    /// ripgrep. A limit past 10,000 paths a report is taken as 10,000 (a report is one frame).
    func findInside(_ asked: RemoteRequest.FindInside, id: UInt64) -> @Sendable () -> Void {
        let task = place.findInside(asked.path, query: asked.query, limit: min(max(asked.limit, 0), 10_000)) { [self] result in
            switch result {
            case .success(let report):
                if report.complete { finish(id) }
                send(.foundInside(report), id: id)
            case .failure(let failure):
                finish(id)
                send(.failure(RemoteFailure(failure)), id: id)
            }
        }
        return { task.cancel() }
    }
}
