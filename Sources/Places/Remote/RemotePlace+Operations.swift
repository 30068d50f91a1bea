import Dispatch
import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit

extension RemotePlace {
    /// A copy, move, trash or delete of the remote's files, done there by its `FileOperation`
    /// with its own checks (free space, names its volume refuses, a file changed meanwhile, the
    /// remote's trash): its progress and questions cross as they come, `events.resolve` is asked
    /// here, and pausing or cancelling `operation` here reaches it there. Past 30 s (six call
    /// deadlines) without a word from the remote: `.notResponding`, the operation cancelled there
    /// when it answers again.
    public func perform(_ operation: FileOperation, events: FileOperationEvents) async throws(FileSystemError) -> FileOperation.Report {
        let request = RemoteRequest.perform(.init(kind: operation.kind, sources: operation.sources, destination: operation.destination,
                                                  verifiesContent: operation.verifiesContent))
        let link = Mutex<(id: UInt64, connection: RemoteConnection)?>(nil)
        let watcher = Mutex<OperationWatcher?>(nil)
        defer { watcher.withLock { $0 }?.stop() }
        // 30 s without a word (six calls' deadlines): progress comes ten times a second, and once
        // a second while a question waits for the user.
        let (answer, _) = try await call(request, deadline: callDeadline * 6, sent: { id, connection in
            link.withLock { $0 = (id, connection) }
            // The operation's pause and cancel are flags on this side (the jobs panel's): looked
            // at ten times a second from now on; paused before it started, it starts paused there.
            watcher.withLock { $0 = OperationWatcher(operation) { connection.signal($0, to: id) } }
        }, during: { answer, _ in
            switch answer {
            case .progress(let progress): events.progress(progress)
            case .conflict(let conflict):
                // Asked on a thread of its own: the asker may wait for the user.
                DispatchQueue.global().async {
                    let (choice, all) = events.resolve(conflict)
                    if let (id, connection) = link.withLock({ $0 }) { connection.signal(.choose(choice: choice, applyToAll: all), to: id) }
                }
            default: break
            }
        })
        guard case .report(let report) = answer else { throw unexpected() }
        return report
    }

    /// `T` on a remote folder: the batch walks, looks up the cache and decodes on the remote
    /// (its workers, its cache, its `.sh_thumbnails` when asked) and only its events cross, ten
    /// groups a second at most. Ending the iteration stops it there. A link lost or a remote
    /// silent for a minute ends it with each root reported not listed, with why.
    public func thumbnailFolders(_ roots: [String], options: BatchOptions) -> AsyncStream<ThumbnailBatch.Event> {
        let (stream, continuation) = AsyncStream<ThumbnailBatch.Event>.makeStream()
        let host = name
        let request = RemoteRequest.batch(.init(roots: roots, box: options.box, jobs: options.jobs,
                                                shard: options.shard.map { [$0.index, $0.count] },
                                                writesShared: options.writesShared, ignoresStored: options.ignoresStored))
        let task = Task { [self] in
            do throws(FileSystemError) {
                let (answer, _) = try await call(request, deadline: thumbnailDeadline, during: { answer, _ in
                    if case .batch(let events, _) = answer { RemoteBatchEvent.events(events, host: host).forEach { continuation.yield($0) } }
                })
                if case .batch(let events, _) = answer { RemoteBatchEvent.events(events, host: host).forEach { continuation.yield($0) } }
            } catch {
                if error.code != .cancelled { continuation.yield(.unlisted(roots.map { (folder: $0, reason: error.message) })) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Quick Look's pages, frames, regions, members, lengths and custom previewers, made by the
    /// remote's own workers: only the picture (as PNG) or the text crosses, with the thumbnails'
    /// deadline and cancellation.
    public var previews: PreviewGenerator? { PreviewGenerator(workers: RemotePreviewWorkers(place: self)) }
}

/// Watches a running operation's pause and cancel flags (set on this side by the jobs panel)
/// and tells the remote when they change.
private final class OperationWatcher: Sendable {
    private let operation: FileOperation
    private let signal: @Sendable (RemoteRequest) -> Void
    private let state = Mutex<(paused: Bool, cancelled: Bool, stopped: Bool)>((false, false, false))

    init(_ operation: FileOperation, signal: @escaping @Sendable (RemoteRequest) -> Void) {
        self.operation = operation
        self.signal = signal
        check()
    }

    func stop() { state.withLock { $0.stopped = true } }

    private func tick() {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { [self] in check() }
    }

    private func check() {
        let paused = operation.isPaused, cancelled = operation.isCancelled
        let (stopped, pauseChanged, cancelNow) = state.withLock { state in
            defer { state.paused = paused; state.cancelled = state.cancelled || cancelled }
            return (state.stopped, state.paused != paused, cancelled && !state.cancelled)
        }
        guard !stopped else { return }
        if pauseChanged { signal(.pause(paused)) }
        if cancelNow { signal(.cancel) }
        tick()
    }
}
