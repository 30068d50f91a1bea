import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// A pool of `qlbrowse-thumbnailer` worker processes, sized to the cores and reused across files.
///
/// All decoding of file content happens in these processes. A worker that crashes, hangs past its
/// deadline or runs out of memory is killed and replaced; only the request it was working on fails.
public actor WorkerPool: WorkerBackend {
    private struct Job {
        let id: UInt64
        let message: WorkerMessage
        let continuation: AsyncThrowingStream<WorkerEvent, Error>.Continuation
    }

    private struct Slot {
        var process: WorkerProcess?
        var job: Job?
        /// A cancelled request the worker has not yet acknowledged; the slot takes no work meanwhile.
        var draining: UInt64?
        var isFree: Bool { job == nil && draining == nil }
    }

    public let executable: String
    public let limits: WorkerLimits
    private let stderrPath: String?
    private var slots: [Slot]
    private var queue: [Job] = []
    private var shutDown = false
    /// Killed workers not yet reaped: shutdown waits for them too.
    private var retired: [WorkerProcess] = []
    /// Workers replaced after a crash, hang or kill, for diagnostics and tests.
    public private(set) var replacedWorkers = 0

    public init(size: Int = WorkerPool.coreCount, executable: String = WorkerPool.defaultExecutable(),
                limits: WorkerLimits = .standard, stderrPath: String? = "/dev/null") {
        self.executable = executable
        self.limits = limits
        self.stderrPath = stderrPath
        self.slots = Array(repeating: Slot(), count: max(1, size))
    }

    /// Asks a worker for representations of `path` fitting `box`. The stream ends after the last
    /// picture, or throws a `ThumbnailError`; ending the iteration cancels the work.
    public nonisolated func run(path: String, box: PixelSize, types: Set<RepresentationType>, contentType: ContentType?,
                                wantsFacts: Bool = true) -> AsyncThrowingStream<WorkerEvent, Error> {
        submit(WorkerMessage.thumbnails(path: path, box: box, types: types, contentType: contentType, wantsFacts: wantsFacts))
    }

    /// Sends any request (its `id` is assigned here) under the same deadline, limits and
    /// cancellation as thumbnails; preview requests end with one `.preview` event.
    package nonisolated func submit(_ request: WorkerMessage) -> AsyncThrowingStream<WorkerEvent, Error> {
        let id = RequestIdentifiers.next()
        var message = request
        message.id = id
        let (stream, continuation) = AsyncThrowingStream<WorkerEvent, Error>.makeStream()
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination {
                Task { await self?.cancel(id) }
            }
        }
        Task { await self.enqueue(Job(id: id, message: message, continuation: continuation)) }
        return stream
    }

    /// Starts every worker now (or the first `count`), so their start-up overlaps the caller's own
    /// (walking folders, parsing options); the others start when requests need them.
    public func warmUp(count: Int = .max) {
        for index in slots.indices.prefix(count) where slots[index].process == nil && !shutDown {
            guard (try? spawn(slot: index)) != nil else { return }  // the first real request reports why
        }
    }

    /// Stops every worker and waits (up to `waitSeconds`) until each has ended and been reaped, so
    /// a one-shot command leaves no process behind. Requests still queued or running fail as
    /// cancelled. A worker stuck in the kernel (a dead share) cannot die until the kernel lets it
    /// go; past `waitSeconds` it is left to `init`.
    public func shutdown(waitSeconds: Double = 2) async {
        let stopping = slots.compactMap(\.process) + retired
        retired.removeAll()
        shutDown = true
        for job in queue { job.continuation.finish(throwing: CancellationError()) }
        queue.removeAll()
        for index in slots.indices {
            slots[index].job?.continuation.finish(throwing: CancellationError())
            slots[index].job = nil
            slots[index].process?.closeRequests()
            slots[index].process?.kill()
            slots[index].process = nil
        }
        for process in stopping { process.kill() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for process in stopping { await process.waitForExit() }
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(saturating: waitSeconds * 1_000_000_000))
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func enqueue(_ job: Job) {
        guard !shutDown else {
            job.continuation.finish(throwing: CancellationError())
            return
        }
        queue.append(job)
        dispatch()
    }

    private func dispatch() {
        for index in slots.indices where slots[index].isFree && !queue.isEmpty {
            let job = queue.removeFirst()
            guard let process = processForSlot(index, failing: job) else { continue }
            slots[index].job = job
            // The worker learns when the pool gives up, so it can stop an external command just before.
            var message = job.message
            let deadline = job.message.deadlineSeconds ?? limits.deadlineSeconds
            // Capped at about 30 years, so that adding it to the clock cannot overflow.
            message.deadlineNanos = SystemTime.now() + Int64(saturating: min(deadline, 1e9) * 1e9)
            if !process.send(message) {
                // The worker died between jobs: replace it once; a worker that cannot even start fails the job.
                retire(index, process: process)
                guard let fresh = processForSlot(index, failing: job) else { slots[index].job = nil; continue }
                if !fresh.send(message) {
                    retire(index, process: fresh)
                    slots[index].job = nil
                    job.continuation.finish(throwing: ThumbnailError(.workerUnavailable, "the thumbnail worker \(executable) exits as soon as it starts"))
                    continue
                }
            }
            Task { [weak self] in
                try? await Task.sleep(nanoseconds: UInt64(saturating: deadline * 1_000_000_000))
                await self?.deadlinePassed(slot: index, job: job.id)
            }
        }
    }

    private func processForSlot(_ index: Int, failing job: Job) -> WorkerProcess? {
        if let process = slots[index].process { return process }
        do {
            return try spawn(slot: index)
        } catch {
            job.continuation.finish(throwing: error)
            return nil
        }
    }

    /// Starts a worker for a slot and routes its events back to the pool.
    private func spawn(slot index: Int) throws(ThumbnailError) -> WorkerProcess {
        let process = try WorkerProcess(
            executable: executable,
            arguments: ["--memory-limit", String(limits.memoryBytes), "--cpu-limit", String(limits.cpuSeconds)],
            stderrPath: stderrPath)
        slots[index].process = process
        Task { [weak self] in
            for await event in process.events {
                await self?.handle(event, from: process, slot: index)
            }
        }
        return process
    }

    private func handle(_ event: WorkerProcess.Event, from process: WorkerProcess, slot index: Int) {
        guard slots[index].process === process else { return }  // a retired worker's late news
        switch event {
        case .message(let message, let payload):
            handle(message, payload: payload, slot: index)
        case .exited(let status):
            slots[index].process = nil
            slots[index].draining = nil
            replacedWorkers += 1
            if let job = slots[index].job {
                slots[index].job = nil
                let reason = "the decoder \(status)"
                job.continuation.finish(throwing: ThumbnailError(status.signal == SIGXCPU ? .timedOut : .crashed, reason))
            }
            dispatch()
        }
    }

    private func handle(_ message: WorkerMessage, payload: [UInt8], slot index: Int) {
        if let draining = slots[index].draining, draining == message.id {
            if message.kind == .done || message.kind == .failure {
                slots[index].draining = nil
                dispatch()
            }
            return
        }
        guard let job = slots[index].job, job.id == message.id else { return }
        switch WorkerReply.meaning(of: message, payload: payload) {
        case .event(let event):
            job.continuation.yield(event)
        case .last(let event):
            job.continuation.yield(event)
            finish(slot: index, throwing: nil)
        case .end(let error):
            finish(slot: index, throwing: error)
        case .none:
            break
        }
    }

    private func finish(slot index: Int, throwing error: Error?) {
        guard let job = slots[index].job else { return }
        slots[index].job = nil
        job.continuation.finish(throwing: error)
        dispatch()
    }

    private func deadlinePassed(slot index: Int, job id: UInt64) {
        guard let job = slots[index].job, job.id == id, let process = slots[index].process else { return }
        retire(index, process: process)
        slots[index].job = nil
        let seconds = job.message.deadlineSeconds ?? limits.deadlineSeconds
        job.continuation.finish(throwing: ThumbnailError(.timedOut, "gave up after \(seconds.formatted1) s (the decoder did not finish)"))
        dispatch()
    }

    private func cancel(_ id: UInt64) {
        if let position = queue.firstIndex(where: { $0.id == id }) {
            queue.remove(at: position).continuation.finish(throwing: CancellationError())
            return
        }
        guard let index = slots.firstIndex(where: { $0.job?.id == id }), let process = slots[index].process else { return }
        slots[index].job = nil
        slots[index].draining = id
        var message = WorkerMessage(kind: .cancel, id: id)
        message.reason = "cancelled"
        process.send(message)
        let grace = limits.cancelGraceSeconds
        Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(saturating: grace * 1_000_000_000))
            await self?.gracePassed(slot: index, draining: id)
        }
    }

    private func forgetRetired(_ process: WorkerProcess) {
        retired.removeAll { $0 === process }
    }

    private func gracePassed(slot index: Int, draining id: UInt64) {
        guard slots[index].draining == id, let process = slots[index].process else { return }
        retire(index, process: process)
        dispatch()
    }

    /// Kills a worker and forgets it; a new one starts when the slot is next used.
    private func retire(_ index: Int, process: WorkerProcess) {
        process.kill()
        retired.append(process)
        Task { [weak self] in
            await process.waitForExit()
            await self?.forgetRetired(process)
        }
        if slots[index].process === process {
            slots[index].process = nil
            slots[index].draining = nil
            replacedWorkers += 1
        }
    }
}

extension Double {
    /// One decimal, for messages ("10.0 s").
    var formatted1: String {
        let tenths = Int((self * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
