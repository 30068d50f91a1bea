import FileSystemKit
import Synchronization
import SystemKit

extension RemotePlace {
    /// `F` in a remote tab: the remote's `qlbrowse serve` walks its folder and ranks there (the
    /// `.find` request), and only the best matches cross, a report at a time under the request's
    /// id; a new query goes as `.findQuery` under that id (ranked over there, never walked again).
    /// Cancelling sends the cancel, which stops the remote's walk. No deadline: a search waits
    /// for the user's next key as long as it likes; a link lost is reported as a failure.
    public func find(under folder: String, showsHidden: Bool, skipping mountPoints: [String]?,
                     report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceFind {
        let link = FindLink()
        let host = name
        return PlaceFind(start: { [self] in
            Task {
                let connection: RemoteConnection
                do throws(FileSystemError) {
                    connection = try await self.connection()
                } catch {
                    if !link.state.withLock({ $0.cancelled }) { report(.failure(error)) }
                    return
                }
                link.state.withLock { state in
                    guard !state.cancelled else { return }
                    let request = RemoteRequest.find(.init(path: folder, showsHidden: showsHidden, query: state.query))
                    let id = connection.send(request) { result in
                        switch result {
                        case .success((.found(let found), _)): report(.success(found))
                        case .success((.failure(let failure), _)): report(.failure(failure.fileSystemError))
                        case .success: report(.failure(FileSystemError(code: .other, path: host, context: "\(TerminalText.escaped(host)) answered something else than was asked")))
                        case .failure(let failure) where failure.code == .cancelled: break
                        case .failure(let failure): report(.failure(failure))
                        }
                    }
                    state.sent = (id, connection)
                }
            }
        }, search: { query in
            link.state.withLock { state in
                state.query = query
                if let (id, connection) = state.sent { connection.signal(.findQuery(query), to: id) }
            }
        }, onCancel: {
            let sent = link.state.withLock { state in
                state.cancelled = true
                return state.sent
            }
            if let (id, connection) = sent { connection.cancel(id) }
        })
    }
}

/// One remote search's link: the query to send first, the request once sent, whether it was cancelled.
private final class FindLink: Sendable {
    struct State {
        var query = ""
        var sent: (id: UInt64, connection: RemoteConnection)?
        var cancelled = false
    }
    let state = Mutex(State())
}
