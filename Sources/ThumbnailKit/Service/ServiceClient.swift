import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Worker requests sent to the resident per-user service (`qlbrowse service`), which keeps a warm
/// pool of workers for every `thumbnail` and `preview` call and every browser: no call pays for
/// starting a decoder process.
///
/// Nothing happens until the first request (a cache hit never connects). Then the client connects,
/// or starts the service under a lock when none of this build answers. A request whose connection
/// breaks (the service was killed or crashed, or went idle meanwhile) is sent again once to a
/// fresh service; when that fails too, or no service can be had, this client's requests go to
/// workers of its own from then on. The service is never a reason for a call to fail.
package actor ServiceClient: WorkerBackend {
    private let launcher: ServiceLauncher
    private let makeFallback: @Sendable () -> WorkerPool
    /// The caller's own deadline (`--timeout`), sent with each request; nil: the service's.
    private let deadlineSeconds: Double?
    private var connection: ServiceConnection?
    private var connecting: Task<ServiceConnection?, Never>?
    private var fallback: WorkerPool?
    /// Set once the service failed twice: every later request goes to the fallback.
    private var givenUp = false

    /// `command` starts the service; its output and the client's notes go to `log`; `fallback`
    /// makes the pool used when the service cannot be (it is made only then).
    package init(command: [String], log: String, limits: WorkerLimits = .standard, fallback: @escaping @Sendable () -> WorkerPool) {
        // A live service answers within a worker's deadline and cancel grace (its pool kills the
        // worker then); well past that, it is taken for hung.
        let silence = max(30, limits.deadlineSeconds + limits.cancelGraceSeconds + 15)
        self.launcher = ServiceLauncher(command: command, log: log, silenceSeconds: silence)
        self.makeFallback = fallback
        self.deadlineSeconds = limits.deadlineSeconds == WorkerLimits.standard.deadlineSeconds ? nil : limits.deadlineSeconds
    }

    package nonisolated func submit(_ request: WorkerRequest) -> AsyncThrowingStream<WorkerEvent, Error> {
        let (stream, continuation) = AsyncThrowingStream<WorkerEvent, Error>.makeStream()
        let task = Task { await relay(request, to: continuation) }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }

    /// Connects now, starting the service when none answers (it starts its first worker at once).
    package func prepare() async {
        _ = await connection(replacing: nil)
    }

    package func shutdown(waitSeconds: Double) async {
        givenUp = true
        connection?.close()
        connection = nil
        await fallback?.shutdown(waitSeconds: waitSeconds)
    }

    /// Sends the request to the service, again to a fresh one if the connection broke, and to the
    /// fallback workers if that broke too; passes the events on.
    private nonisolated func relay(_ request: WorkerRequest, to continuation: AsyncThrowingStream<WorkerEvent, Error>.Continuation) async {
        var broken: ServiceConnection?
        for _ in 0..<2 {
            guard let connection = await connection(replacing: broken) else { break }
            do {
                for try await event in connection.run(request, deadline: WorkerDeadline(seconds: deadlineSeconds)) { continuation.yield(event) }
                continuation.finish()
                return
            } catch is ServiceLost {
                broken = connection
            } catch {
                continuation.finish(throwing: error)
                return
            }
            if Task.isCancelled { break }
        }
        if broken != nil { await giveUp("the service's connection broke twice") }
        guard !Task.isCancelled else {
            continuation.finish(throwing: CancellationError())
            return
        }
        do {
            for try await event in await localPool().submit(request) { continuation.yield(event) }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }

    /// The open connection, or a new one (one attempt at a time for all requests); nil once the
    /// service has been given up. `broken`: the connection that just failed a request.
    private func connection(replacing broken: ServiceConnection?) async -> ServiceConnection? {
        if let connection, connection.isOpen, connection !== broken { return connection }
        if givenUp { return nil }
        if let connecting { return await connecting.value }
        let launcher = self.launcher
        let afterFailure = broken != nil || connection != nil
        let waiting = Task { () -> ServiceConnection? in
            let outcome: Result<ServiceConnection, ServiceUnavailable>
            do throws(FileSystemError) {
                outcome = try await VolumeIO.engine.call { _ in launcher.connect(afterFailure: afterFailure) }
            } catch {
                outcome = .failure(ServiceUnavailable(error.message))
            }
            switch outcome {
            case .success(let connection):
                return connection
            case .failure(let why):
                self.giveUp(why.reason)
                return nil
            }
        }
        connecting = waiting
        let result = await waiting.value
        connecting = nil
        connection = result
        return result
    }

    private func giveUp(_ reason: String) {
        guard !givenUp else { return }
        givenUp = true
        ServiceLog.line("client \(getpid()): using its own workers: \(reason)", to: launcher.log)
    }

    private func localPool() -> WorkerPool {
        if let fallback { return fallback }
        let pool = makeFallback()
        fallback = pool
        return pool
    }
}
