import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension VolumeIO {
    /// Tells a running body that nobody waits for it any more.
    public final class Token: Sendable {
        private let flag = Atomic<Bool>(false)
        /// True once the awaiting task was cancelled: the body may stop early.
        public var isCancelled: Bool { flag.load(ordering: .relaxed) }
        func cancel() { flag.store(true, ordering: .relaxed) }
    }

    /// Runs `body` on a thread of its own and awaits it, so the awaiting task is suspended instead
    /// of holding one of the few cooperative threads (a `stat` on a hung share, a walk of a dead
    /// FUSE mount). Cancelling the task returns at once with `.cancelled`; the thread is left to
    /// finish, or to stay stuck, on its own, and `body` sees the cancellation through its token.
    /// Past `maximumOutstanding` (or with `volume` stuck) it fails at once with `.notResponding`
    /// rather than piling threads up behind a volume that does not answer. With a `deadline`
    /// (seconds), a body that has not returned by then fails the call with `.notResponding`, as a
    /// cancel would (a stat stuck on a hung share held a `thumbnail` call for good).
    public func call<T: Sendable>(volume: String? = nil, deadline: Double? = nil,
                                  _ body: @escaping @Sendable (Token) -> T) async throws(FileSystemError) -> T {
        let token = Token()
        let waiter = Waiter<T>()
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                    guard waiter.attach(continuation) else { return }
                    guard admit(volume) else {
                        waiter.finish(.failure(FileSystemError(code: .notResponding, context: "too many file system calls are stuck (a volume is not answering)")))
                        return
                    }
                    // The failure is settled before the body hears of it: a body that returns at
                    // once on its token must not answer a call that has already failed.
                    let timer = deadline.map { deadline in
                        Timer(after: deadline) {
                            waiter.finish(.failure(FileSystemError(code: .notResponding,
                                                                   context: "no answer in \(Self.seconds(deadline)) (the volume is not responding)")))
                            token.cancel()
                        }
                    }
                    let started = DetachedThread.start(stackSize: 512 * 1024) { [self] in
                        let value = body(token)
                        timer?.cancel()
                        release(volume, wasAbandoned: false)
                        waiter.finish(.success(value))
                    }
                    if !started {
                        timer?.cancel()
                        release(volume, wasAbandoned: false)
                        waiter.finish(.failure(.system(errno, "cannot start a thread", call: "pthread_create")))
                    }
                    timer?.start()
                }
            } onCancel: {
                waiter.finish(.failure(.cancelled))
                token.cancel()
            }
        } catch let error as FileSystemError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// "2 s", "0.5 s": a deadline as the user reads it.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// A deadline's work on a timer of its own, cancelled when the body returns in time: the
    /// timer and what its work holds are let go then, not left pending until the deadline.
    /// (libdispatch's sources are not marked `Sendable`; `cancel` and `resume` are safe from any
    /// thread, and nothing else of the source is shared.)
    private final class Timer: @unchecked Sendable {
        private let source: any DispatchSourceTimer
        init(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
            source = DispatchSource.makeTimerSource(queue: .global())
            source.setEventHandler(handler: work)
            source.schedule(deadline: .now() + seconds)
        }
        /// Starts the count; called once (a source released while never started would crash).
        func start() { source.resume() }
        /// The work will not run (before or after `start`).
        func cancel() { source.cancel() }
    }

    /// Resumes the continuation exactly once, whichever comes first: the result or the cancel
    /// (which may even come before the continuation exists).
    private final class Waiter<T: Sendable>: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<T, any Error>?, early: Result<T, FileSystemError>?, done: Bool)>((nil, nil, false))

        /// Keeps the continuation; false (and resumed) when the outcome is already known.
        func attach(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
            let early: Result<T, FileSystemError>? = state.withLock {
                if let early = $0.early {
                    $0.done = true
                    return early
                }
                $0.continuation = continuation
                return nil
            }
            guard let early else { return true }
            continuation.resume(with: early.mapError { $0 as any Error })
            return false
        }

        func finish(_ result: Result<T, FileSystemError>) {
            let continuation: CheckedContinuation<T, any Error>? = state.withLock {
                guard !$0.done else { return nil }
                guard let continuation = $0.continuation else {
                    if $0.early == nil { $0.early = result }
                    return nil
                }
                $0.done = true
                $0.continuation = nil
                return continuation
            }
            continuation?.resume(with: result.mapError { $0 as any Error })
        }
    }
}
