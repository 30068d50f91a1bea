import Dispatch
import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit

extension RemoteServer {
    /// A Quick Look preview made by this side's workers; the picture goes back as PNG.
    /// Returns the request's cancel.
    func preview(_ request: WorkerRequest, id: UInt64) -> @Sendable () -> Void {
        let relayable: Bool
        switch request {
        case .page, .frame, .mediaFacts, .members, .previewer, .custom, .region: relayable = true
        case .hello, .cancel, .thumbnails, .edit: relayable = false
        }
        guard relayable, let workers = previews else {
            finish(id)
            send(.failure(RemoteFailure(ThumbnailError(.unsupported, "this preview is not made on a remote"))), id: id)
            return {}
        }
        let task = Task { [self] in
            do {
                for try await event in workers.submit(request) {
                    guard case .preview(let reply) = event else { continue }
                    let (payload, png) = RemotePreviewPicture.pack(reply.answer, reply.payload)
                    finish(id)
                    send(.preview(answer: reply.answer, png: png), id: id, payload: payload)
                    return
                }
                throw ThumbnailError(.crashed, "the worker ended the request without an answer")
            } catch {
                finish(id)
                // A cancelled request's answer is not awaited; one more frame costs nothing.
                send(.failure(RemoteFailure(error as? ThumbnailError ?? ThumbnailError(.cancelled, "cancelled"))), id: id)
            }
        }
        return { task.cancel() }
    }

    /// A copy, move, trash or delete by this side's `FileOperation`: progress (ten a second) and
    /// questions go back as they come, then the report. Thumbnails here follow their files.
    func perform(_ asked: RemoteRequest.Perform, id: UInt64) -> @Sendable () -> Void {
        let operation = FileOperation(kind: asked.kind, sources: asked.sources, destination: asked.destination, verifiesContent: asked.verifiesContent)
        let control = RemoteOperationControl(operation)
        operations.withLock { $0[id] = control }
        let cache = self.cache
        let task = Task { [self] in
            let report: FileOperation.Report
            do throws(FileSystemError) {
                if let destination = asked.destination, asked.kind == .copy || asked.kind == .move {
                    let capabilities = try await place.capabilities(of: destination, trial: true)
                    if let problem = operation.problem(destinationCapabilities: capabilities) {
                        throw FileSystemError(code: .unsupported, path: destination, context: problem + "; nothing was written")
                    }
                }
                // Paused, or waiting for the user's answer, the operation says nothing: its last
                // progress is said again after each quiet second, so that the other side's
                // deadline hears it is alive.
                let alive = Task { [self] in
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(1))
                        if !Task.isCancelled, let quiet = control.progressDue(after: 1_000_000_000) { send(.progress(quiet), id: id) }
                    }
                }
                defer { alive.cancel() }
                report = try await place.perform(operation, events: FileOperationEvents(resolve: { [self] conflict in
                    send(.conflict(conflict), id: id)
                    return control.waitForAnswer()
                }, progress: { [self] progress in
                    control.latest.withLock { $0 = progress }
                    if let due = control.progressDue(after: 100_000_000) { send(.progress(due), id: id) }
                }, moved: { cache?.moveThumbnails(from: $0, to: $1) }, removed: { cache?.removeThumbnails(for: $0) }))
            } catch {
                operations.withLock { _ = $0.removeValue(forKey: id) }
                finish(id)
                send(.failure(RemoteFailure(error)), id: id)
                return
            }
            operations.withLock { _ = $0.removeValue(forKey: id) }
            finish(id)
            send(.report(report), id: id)
        }
        return {
            operation.cancel()
            control.answer(.skip, applyToAll: false)
            _ = task
        }
    }

    /// `T` on this side: the batch walks, looks up and decodes here; its events go back in
    /// groups (at most ten groups a second), the last saying it ended.
    func batch(_ asked: RemoteRequest.Batch, id: UInt64) -> @Sendable () -> Void {
        let shard = asked.shard.flatMap { $0.count == 2 ? ThumbnailBatch.Shard(index: $0[0], count: $0[1]) : nil }
        let options = BatchOptions(box: asked.box, jobs: asked.jobs, shard: shard, writesShared: asked.writesShared, ignoresStored: asked.ignoresStored)
        // A long walk says nothing until it has counted the files: an empty group after each
        // quiet second tells the other side's deadline the batch is alive.
        let control = RemoteOperationControl(FileOperation(kind: .copy, sources: [], destination: nil))
        let alive = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                if !Task.isCancelled, control.progressDue(after: 1_000_000_000) != nil { send(.batch(events: [], ended: false), id: id) }
            }
        }
        let task = Task { [self] in
            defer { alive.cancel() }
            var pending: [RemoteBatchEvent] = []
            for await event in place.thumbnailFolders(asked.roots, options: options) {
                pending += RemoteBatchEvent.of(event)
                if control.progressDue(after: 100_000_000) != nil {
                    send(.batch(events: pending, ended: false), id: id)
                    pending = []
                }
            }
            finish(id)
            send(.batch(events: pending, ended: true), id: id)
        }
        return {
            alive.cancel()
            task.cancel()
        }
    }
}

/// A file operation running for the other side: the operation (to pause), the answer to its
/// question, which its thread waits for, and when it last said something (a batch uses that part).
final class RemoteOperationControl: Sendable {
    let operation: FileOperation
    /// The operation's last progress, and when progress was last sent.
    let latest = Mutex(FileOperation.Progress())
    private let lastSent = Mutex<Int64>(0)
    private let answered = DispatchSemaphore(value: 0)
    private let choice = Mutex<(FileOperation.ConflictChoice, Bool)?>(nil)

    init(_ operation: FileOperation) { self.operation = operation }

    /// The progress to send when none was sent for `nanoseconds` (then counted as sent), else nil.
    func progressDue(after nanoseconds: Int64) -> FileOperation.Progress? {
        let now = SystemTime.now()
        let due = lastSent.withLock { last in
            guard now - last >= nanoseconds else { return false }
            last = now
            return true
        }
        return due ? latest.withLock { $0 } : nil
    }

    func answer(_ choice: FileOperation.ConflictChoice, applyToAll: Bool) {
        self.choice.withLock { $0 = (choice, applyToAll) }
        answered.signal()
    }

    /// Waits for the other side's answer (a cancelled operation's is "skip").
    func waitForAnswer() -> (FileOperation.ConflictChoice, applyToAll: Bool) {
        answered.wait()
        let answer = choice.withLock { answer in
            defer { answer = nil }
            return answer
        }
        return answer.map { ($0.0, $0.1) } ?? (.skip, false)
    }
}
