import FileSystemKit
import SystemKit

extension RemoteServer {
    /// A search for the other side with this side's `LocalPlace.find` (the walk here, this
    /// side's other volumes left out): each report goes back as `.found` under the request's id,
    /// for the first query and each `.findQuery` after, until the cancel, which stops the walk.
    /// Returns the request's cancel.
    func find(_ asked: RemoteRequest.Find, id: UInt64) -> @Sendable () -> Void {
        let search = place.find(under: asked.path, showsHidden: asked.showsHidden, skipping: nil) { [self] result in
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
}
