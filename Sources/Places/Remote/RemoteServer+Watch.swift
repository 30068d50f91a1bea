import FileSystemKit
import Synchronization
import SystemKit

extension RemoteServer {
    /// A folder watched for the other side with this side's `LocalPlace.watch` (inotify, added on
    /// the folder's volume's threads with a deadline, so a hung share answers `.notResponding`
    /// and holds neither this request nor the reading thread): its changes go back together,
    /// ~150 ms of them a message (`RemoteWatchBatches`), until the cancel (which stops the
    /// inotify watch), the folder gone, or the link's end. Returns the request's cancel.
    func watch(_ path: String, id: UInt64) -> @Sendable () -> Void {
        let batches = RemoteWatchBatches { [self] batch in
            if batch.gone { finish(id) }
            send(.changes(count: batch.names.count, relist: batch.relist, gone: batch.gone), id: id,
                 payload: RemoteWatchBatches.pack(batch.names))
        }
        // The task reading the changes once the watch is in place; `cancelled` once the request is.
        let reading = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))
        place.watch(path) { [self] started in
            switch started {
            case .failure(let error):
                // A cancelled request has been forgotten already: nobody waits for its answer.
                guard !reading.withLock({ $0.cancelled }) else { return }
                finish(id)
                send(.failure(RemoteFailure(error)), id: id)
            case .success(let changes):
                // Ending this loop (the task cancelled) ends the stream, which stops the watch.
                let task = Task {
                    for await change in changes {
                        switch change {
                        case .changed(let name): batches.changed(name)
                        case .gone: batches.gone()
                        }
                    }
                }
                if reading.withLock({ state in
                    state.task = task
                    return state.cancelled
                }) { task.cancel() }
            }
        }
        return {
            batches.end()
            reading.withLock { state in
                state.cancelled = true
                return state.task
            }?.cancel()
        }
    }
}
