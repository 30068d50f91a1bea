import FileSystemKit
import Synchronization
import SystemKit

extension RemotePlace {
    /// Lists `folder` on the remote: its batches as they come (the remote's lister sends a small
    /// first one at once), `.notResponding` after `listingDeadline` seconds without one, the link
    /// lost as `.volumeGone`. Cancelling tells the remote to stop.
    @discardableResult
    public func list(_ folder: String, deliver: @escaping @Sendable (EntryStore, Bool, FileSystemError?) -> Void) -> PlaceTask {
        let state = ListingState()
        let task = PlaceTask { state.cancel() }
        let name = self.name, seconds = listingDeadline
        Task { [self] in
            let connection: RemoteConnection
            do throws(FileSystemError) {
                connection = try await self.connection()
            } catch {
                if !task.isCancelled { deliver(EntryStore(), true, error) }
                return
            }
            let id = connection.send(.list(path: folder)) { result in
                guard !task.isCancelled else { return }
                state.deadline.withLock { $0 }?.beat()
                switch result {
                case .success((.entries(let complete), let bytes)):
                    guard let batch = RemoteListing.unpack(bytes) else {
                        state.end()
                        deliver(EntryStore(), true, FileSystemError(code: .other, path: folder, context: "\(TerminalText.escaped(name)) sent a listing cut short"))
                        return
                    }
                    if complete { state.end() }
                    deliver(batch, complete, nil)
                case .success((.failure(let failure), _)):
                    state.end()
                    deliver(EntryStore(), true, failure.fileSystemError)
                case .success:
                    state.end()
                    deliver(EntryStore(), true, self.unexpected())
                case .failure(let failure):
                    state.end()
                    deliver(EntryStore(), true, failure)
                }
            }
            let deadline = RemoteDeadline(seconds: seconds) { connection.fail(id, with: .notResponding(TerminalText.escaped(name))) }
            state.start(deadline) { connection.cancel(id) }
        }
        return task
    }

    /// One listing's deadline and its cancel, set once the request is sent.
    private final class ListingState: Sendable {
        let deadline = Mutex<RemoteDeadline?>(nil)
        private let stop = Mutex<(ended: Bool, cancelled: Bool, cancel: (@Sendable () -> Void)?)>((false, false, nil))

        func start(_ deadline: RemoteDeadline, cancel: @escaping @Sendable () -> Void) {
            self.deadline.withLock { $0 = deadline }
            let (ended, cancelled) = stop.withLock { stop in
                stop.cancel = cancel
                return (stop.ended, stop.cancelled)
            }
            if ended || cancelled { deadline.finish() }
            if cancelled { cancel() }
        }

        func end() {
            stop.withLock { $0.ended = true }
            deadline.withLock { $0 }?.finish()
        }

        func cancel() {
            let cancel = stop.withLock { stop in
                stop.cancelled = true
                return stop.cancel
            }
            deadline.withLock { $0 }?.finish()
            cancel?()
        }
    }
}
