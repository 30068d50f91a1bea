import SystemKit

extension LocalPlace {
    /// Watches `folder` with inotify (`FolderWatch`). The watch is added on the folder's volume's
    /// threads within a call's deadline: adding it looks the folder up, and on a hung share (a
    /// dead FUSE or SMB mount) that look-up never returns. Every caller (the browser,
    /// `qlbrowse serve`) then gets `.notResponding`, or `.refused` while the volume has a call
    /// stuck, as for any other call on it; a watch added after its caller gave up is dropped,
    /// which stops it.
    public func watch(_ folder: String) async throws(FileSystemError) -> AsyncStream<PlaceChange> {
        try await withCheckedContinuation { (continuation: CheckedContinuation<Result<AsyncStream<PlaceChange>, FileSystemError>, Never>) in
            watch(folder) { continuation.resume(returning: $0) }
        }.get()
    }

    /// `watch(_:)` for a caller that is not a task (`qlbrowse serve`'s reading thread): `started`
    /// hears the changes once the watch is in place (no task between the request and inotify),
    /// or why there is none.
    func watch(_ folder: String, started: @escaping @Sendable (Result<AsyncStream<PlaceChange>, FileSystemError>) -> Void) {
        let (stream, continuation) = AsyncStream<PlaceChange>.makeStream()
        run(folder, { () throws(FileSystemError) in
            try FolderWatch(folder) { change in
                switch change {
                case .changed(let name): continuation.yield(.changed(name: name))
                case .gone:
                    continuation.yield(.gone)
                    continuation.finish()
                }
            }
        }, completion: { result in
            switch result {
            case .success(let watch):
                continuation.onTermination = { _ in watch.stop() }
                started(.success(stream))
            case .failure(let error):
                continuation.finish()
                started(.failure(error))
            }
        })
    }
}
