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
        find(under: folder, showsHidden: showsHidden, best: nil, streams: false, report: report)
    }

    /// The same with `qlbrowse find`'s `best` count (nil: the remote finder's own) and `streams`
    /// (each report says the matches new since the last, `Report.fresh`, for `--all`).
    public func find(under folder: String, showsHidden: Bool, best: Int?, streams: Bool,
                     report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceFind {
        let link = FindLink()
        return PlaceFind(start: { [self] in
            send(on: link, report: report) { query in
                .find(.init(path: folder, showsHidden: showsHidden, query: query, best: best, streams: streams ? true : nil))
            }
        }, search: { query in
            link.state.withLock { state in
                state.query = query
                if let (id, connection) = state.sent { connection.signal(.findQuery(query), to: id) }
            }
        }, onCancel: { link.cancel() })
    }

    /// Tab in `F` in a remote tab: ripgrep runs on the remote, where the files are (the
    /// `.findInside` request), and only the paths it lists cross, the first `limit` of them; the
    /// complete report ends the request. Cancelling (a newer query, the search closed) sends the
    /// cancel, which kills the remote's ripgrep. A remote without ripgrep says so, named.
    public func findInside(_ folder: String, query: String, limit: Int,
                           report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void) -> PlaceTask {
        let link = FindLink()
        send(on: link, report: report) { _ in .findInside(.init(path: folder, query: query, limit: limit)) }
        return PlaceTask(onCancel: { link.cancel() })
    }

    /// Connects (if need be) and sends the request `making` builds from the link's query, unless
    /// the search was cancelled first; its reports and failures go to `report`.
    private func send(on link: FindLink, report: @escaping @Sendable (Result<FileFinder.Report, FileSystemError>) -> Void,
                      making: @escaping @Sendable (String) -> RemoteRequest) {
        let host = name
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
                let id = connection.send(making(state.query)) { result in
                    switch result {
                    case .success((.found(let found), _)), .success((.foundInside(let found), _)): report(.success(found))
                    case .success((.failure(let failure), _)):
                        // Named as the remote's ("on nas: looking inside files needs ripgrep …").
                        let error = failure.fileSystemError
                        report(.failure(error.context.map { FileSystemError(code: error.code, path: error.path, call: error.call, errno: error.errno,
                                                                            context: "on \(TerminalText.escaped(host)): \($0)") } ?? error))
                    case .success: report(.failure(FileSystemError(code: .other, path: host, context: "\(TerminalText.escaped(host)) answered something else than was asked")))
                    case .failure(let failure) where failure.code == .cancelled: break
                    case .failure(let failure): report(.failure(failure))
                    }
                }
                state.sent = (id, connection)
            }
        }
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

    /// Marks the search cancelled and tells the remote to stop it if it was sent.
    func cancel() {
        let sent = state.withLock { state in
            state.cancelled = true
            return state.sent
        }
        if let (id, connection) = sent { connection.cancel(id) }
    }
}
