import FileSystemKit
import Synchronization
import SystemKit

extension RemotePlace {
    /// Watches `folder` on the remote (its `qlbrowse serve` runs its own inotify watch, the
    /// `.watch` request): changes come a batch at a time, ~150 ms of them a message. Ending the
    /// stream (the browser left the folder, closed the tab) sends the cancel, which stops the
    /// remote's watch. A link that drops yields "list again" (`.changed(name: [])`: the browser's
    /// listing then reconnects or shows the failure) and the watch waits for a live connection,
    /// never starting ssh itself; once one is up (made by the browser's next call) it watches
    /// again and yields "list again" for what it missed. A folder the remote cannot watch ends
    /// the stream with nothing: the browser then simply does not watch there.
    public func watch(_ folder: String) throws(FileSystemError) -> AsyncStream<PlaceChange> {
        let (stream, continuation) = AsyncStream<PlaceChange>.makeStream()
        let task = Task { [self] in
            await keepWatching(folder, continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// How one watch over one connection ended.
    private enum WatchEnd: Sendable {
        case gone, refused, linkLost, cancelled
    }

    private func keepWatching(_ folder: String, _ changes: AsyncStream<PlaceChange>.Continuation) async {
        var first = true
        while !Task.isCancelled {
            let open: RemoteConnection?
            if first {
                open = try? await connection()
            } else {
                open = liveConnection
            }
            guard let open else {
                // Down: the browser's own calls reconnect (and show ssh's failure); this waits.
                try? await Task.sleep(for: .seconds(1))
                first = false
                continue
            }
            if !first { changes.yield(.changed(name: [])) }
            first = false
            switch await watchOnce(folder, on: open, changes) {
            case .gone:
                changes.yield(.gone)
                return
            case .refused, .cancelled:
                return
            case .linkLost:
                changes.yield(.changed(name: []))
            }
        }
    }

    /// One `.watch` request on `connection`, its changes yielded as they come, until it ends.
    private func watchOnce(_ folder: String, on connection: RemoteConnection,
                           _ changes: AsyncStream<PlaceChange>.Continuation) async -> WatchEnd {
        let slot = Mutex<UInt64?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<WatchEnd, Never>) in
                let once = Atomic<Bool>(false)
                let end: @Sendable (WatchEnd) -> Void = { how in
                    if !once.exchange(true, ordering: .relaxed) { done.resume(returning: how) }
                }
                let id = connection.send(.watch(path: folder)) { [self] result in
                    switch result {
                    case .failure(let failure):
                        end(failure.code == .cancelled ? .cancelled : .linkLost)
                    case .success((.changes(let count, let relist, let gone), let payload)):
                        watchMessagesHeard.add(1, ordering: .relaxed)
                        if !relist, let names = RemoteWatchBatches.unpack(payload, count: count) {
                            for name in names { changes.yield(.changed(name: name)) }
                        } else if relist || count > 0 {
                            changes.yield(.changed(name: []))
                        }
                        if gone { end(.gone) }
                    case .success:
                        end(.refused)
                    }
                }
                slot.withLock { $0 = id }
                if Task.isCancelled { connection.fail(id, with: .cancelled) }
            }
        } onCancel: {
            if let id = slot.withLock({ $0 }) { connection.fail(id, with: .cancelled) }
        }
    }
}
