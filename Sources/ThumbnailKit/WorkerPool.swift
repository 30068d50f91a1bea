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
        let request: WorkerRequest
        /// The caller's own deadline in seconds, nil: `limits.deadlineSeconds`.
        let deadlineSeconds: Double?
        let sink: WorkerPoolSink
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
    private let preloads: Bool
    private var slots: [Slot]
    private var queue = CheapFirstQueue<Job> { $0.request.isCheap }
    /// Slots from this index on take only cheap requests (`cheapSlots`).
    private let cheapOnlyFrom: Int
    private var shutDown = false
    /// Killed workers not yet reaped: shutdown waits for them too.
    private var retired: [WorkerProcess] = []
    /// Workers replaced after a crash, hang or kill, for diagnostics and tests.
    public private(set) var replacedWorkers = 0

    /// `preloads`: each worker opens its decoder libraries as it starts, not at its first picture
    /// (for the resident service, whose workers start ahead of the requests). `cheapSlots`: workers
    /// beyond `size` that take only cheap requests (embedded previews), started when such requests
    /// wait (without preloading: an embedded preview needs none of the big decoders): reading a
    /// preview on a share is mostly waiting for it, not work for a core.
    public init(size: Int = WorkerPool.coreCount, cheapSlots: Int = 0, executable: String = WorkerPool.defaultExecutable(),
                limits: WorkerLimits = .standard, stderrPath: String? = "/dev/null", preloads: Bool = false) {
        self.preloads = preloads
        self.executable = executable
        self.limits = limits
        self.stderrPath = stderrPath
        self.slots = Array(repeating: Slot(), count: max(1, size) + max(0, cheapSlots))
        self.cheapOnlyFrom = max(1, size)
    }

    /// Asks a worker for representations of `path` fitting `box`. The stream ends after the last
    /// picture, or throws a `ThumbnailError`; ending the iteration cancels the work.
    public nonisolated func run(path: String, box: PixelSize, types: Set<RepresentationType>, contentType: ContentType?,
                                wantsFacts: Bool = true, embeddedSuffices: Bool = false) -> AsyncThrowingStream<WorkerEvent, Error> {
        submit(.thumbnails(.init(path: path, box: box, types: types, contentType: contentType, wantsFacts: wantsFacts,
                                 embeddedSuffices: embeddedSuffices)))
    }

    /// Sends any request (its id is assigned here) under the same deadline, limits and
    /// cancellation as thumbnails; preview requests end with one `.preview` event.
    package nonisolated func submit(_ request: WorkerRequest) -> AsyncThrowingStream<WorkerEvent, Error> {
        let id = RequestIdentifiers.next()
        let (stream, continuation) = AsyncThrowingStream<WorkerEvent, Error>.makeStream()
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination { Task { await self?.cancel(id) } }
        }
        Task { await self.enqueue(Job(id: id, request: request, deadlineSeconds: nil, sink: .events(continuation))) }
        return stream
    }

    /// Sends a request like `submit`, but hands back the worker's frames as they came (with the
    /// answer each holds), the last one included (`done`, `failure` or a preview answer): for the
    /// service, which passes them on to its client with only the id rewritten. The stream throws
    /// when the pool ends the request itself (the worker crashed or hung, the request was
    /// cancelled). `deadlineSeconds`: the caller's own deadline, nil for the pool's.
    package nonisolated func replies(to request: WorkerRequest, deadlineSeconds: Double?) -> AsyncThrowingStream<WorkerReply, Error> {
        let id = RequestIdentifiers.next()
        let (stream, continuation) = AsyncThrowingStream<WorkerReply, Error>.makeStream()
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination { Task { await self?.cancel(id) } }
        }
        Task { await self.enqueue(Job(id: id, request: request, deadlineSeconds: deadlineSeconds, sink: .replies(continuation))) }
        return stream
    }

    /// How many requests wait for a worker and how many workers are at one (tests, tracing).
    package var load: (waiting: Int, running: Int) { (queue.count, slots.filter { $0.job != nil }.count) }

    /// Starts the first worker now (`WorkerBackend.prepare`); the others start when requests come together.
    package func prepare() { warmUp(count: 1) }

    /// Starts every worker now (or the first `count`), so their start-up overlaps the caller's own
    /// (walking folders, parsing options); the others start when requests need them.
    public func warmUp(count: Int = .max) {
        // Slots kept for cheap requests start when such requests come.
        for index in slots.indices.prefix(min(count, cheapOnlyFrom)) where slots[index].process == nil && !shutDown {
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
        for job in queue.removeAll() { job.sink.finish(throwing: CancellationError()) }
        for index in slots.indices {
            slots[index].job?.sink.finish(throwing: CancellationError())
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
            job.sink.finish(throwing: CancellationError())
            return
        }
        queue.append(job)
        dispatch()
    }

    private func dispatch() {
        for index in slots.indices where slots[index].isFree && !queue.isEmpty {
            guard let job = queue.next(cheapOnly: index >= cheapOnlyFrom) else { continue }
            guard let process = processForSlot(index, failing: job) else { continue }
            slots[index].job = job
            // The worker learns when the pool gives up, so it can stop an external command just before.
            let deadline = job.deadlineSeconds ?? limits.deadlineSeconds
            // Capped at about 30 years, so that adding it to the clock cannot overflow.
            let frame = WorkerCodec.frame(job.request, id: job.id,
                                          deadline: WorkerDeadline(monotonicNanos: SystemTime.now() + Int64(saturating: min(deadline, 1e9) * 1e9)))
            if !process.send(frame) {
                // The worker died between jobs: replace it once; a worker that cannot even start fails the job.
                retire(index, process: process)
                guard let fresh = processForSlot(index, failing: job) else { slots[index].job = nil; continue }
                if !fresh.send(frame) {
                    retire(index, process: fresh)
                    slots[index].job = nil
                    job.sink.finish(throwing: ThumbnailError(.workerUnavailable, "the thumbnail worker \(executable) exits as soon as it starts"))
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
            job.sink.finish(throwing: error)
            return nil
        }
    }

    /// Starts a worker for a slot and routes its events back to the pool.
    private func spawn(slot index: Int) throws(ThumbnailError) -> WorkerProcess {
        let process = try WorkerProcess(
            executable: executable,
            arguments: ["--memory-limit", String(limits.memoryBytes), "--cpu-limit", String(limits.cpuSeconds)] + (preloads && index < cheapOnlyFrom ? ["--preload"] : []),
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
        case .reply(let reply):
            handle(reply, slot: index)
        case .malformed(let id, let error):
            // A worker that writes what this build cannot read is not to be trusted with more.
            guard slots[index].job?.id == id else { return }
            retire(index, process: process)
            finish(slot: index, throwing: ThumbnailError(.crashed, "the worker's answer could not be read: \(error)"))
        case .exited(let status):
            slots[index].process = nil
            slots[index].draining = nil
            replacedWorkers += 1
            if let job = slots[index].job {
                slots[index].job = nil
                let reason = "the decoder \(status)"
                job.sink.finish(throwing: ThumbnailError(status.signal == SIGXCPU ? .timedOut : .crashed, reason))
            }
            dispatch()
        }
    }

    private func handle(_ reply: WorkerReply, slot index: Int) {
        if let draining = slots[index].draining, draining == reply.frame.id {
            if reply.answer.endsRequest {
                slots[index].draining = nil
                dispatch()
            }
            return
        }
        guard let job = slots[index].job, job.id == reply.frame.id else { return }
        if let end = job.sink.deliver(reply) { finish(slot: index, throwing: end.error) }
    }

    private func finish(slot index: Int, throwing error: Error?) {
        guard let job = slots[index].job else { return }
        slots[index].job = nil
        job.sink.finish(throwing: error)
        dispatch()
    }

    private func deadlinePassed(slot index: Int, job id: UInt64) {
        guard let job = slots[index].job, job.id == id, let process = slots[index].process else { return }
        retire(index, process: process)
        slots[index].job = nil
        let seconds = job.deadlineSeconds ?? limits.deadlineSeconds
        job.sink.finish(throwing: ThumbnailError(.timedOut, "gave up after \(seconds.formatted1) s (the decoder did not finish)"))
        dispatch()
    }

    private func cancel(_ id: UInt64) {
        if let job = queue.takeOut(where: { $0.id == id }) {
            job.sink.finish(throwing: CancellationError())
            return
        }
        guard let index = slots.firstIndex(where: { $0.job?.id == id }), let process = slots[index].process else { return }
        slots[index].job = nil
        slots[index].draining = id
        process.send(WorkerCodec.frame(.cancel, id: id))
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
