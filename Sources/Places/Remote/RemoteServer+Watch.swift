import FileSystemKit
import SystemKit

extension RemoteServer {
    /// A folder watched for the other side with this side's `LocalPlace.watch` (inotify, added on
    /// the folder's volume's threads with a deadline, so a hung share answers `.notResponding`
    /// instead of holding this request): its changes go back together, ~150 ms of them a message
    /// (`RemoteWatchBatches`), until the cancel (which stops the inotify watch), the folder gone,
    /// or the link's end. Returns the request's cancel.
    func watch(_ path: String, id: UInt64) -> @Sendable () -> Void {
        let batches = RemoteWatchBatches { [self] batch in
            if batch.gone { finish(id) }
            send(.changes(count: batch.names.count, relist: batch.relist, gone: batch.gone), id: id,
                 payload: RemoteWatchBatches.pack(batch.names))
        }
        let task = Task { [self] in
            let changes: AsyncStream<PlaceChange>
            do throws(FileSystemError) {
                changes = try await place.watch(path)
            } catch {
                // A cancelled request has been forgotten already: nobody waits for its answer.
                guard !Task.isCancelled else { return }
                finish(id)
                send(.failure(RemoteFailure(error)), id: id)
                return
            }
            // Ending this loop (the task cancelled) ends the stream, which stops the watch.
            for await change in changes {
                switch change {
                case .changed(let name): batches.changed(name)
                case .gone: batches.gone()
                }
            }
        }
        return {
            batches.end()
            task.cancel()
        }
    }
}
