import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs a call that may block in the kernel (a `stat` on a hung network share, a listing of a
/// dead FUSE mount) on a thread of its own, so the awaiting task is suspended instead of holding
/// one of the few cooperative threads every other task needs (two on a two-core machine).
///
/// Cancelling the awaiting task returns at once with `.cancelled`; the thread is left to finish,
/// or to stay stuck, on its own, and the body can see the cancellation through its token. A
/// budget bounds the threads outstanding: past it a call fails at once rather than piling up
/// threads behind a volume that does not answer.
public enum BlockingCall {
    /// Tells a running body that nobody waits for it any more.
    public final class Token: Sendable {
        private let flag = Atomic<Bool>(false)
        public var isCancelled: Bool { flag.load(ordering: .relaxed) }
        func cancel() { flag.store(true, ordering: .relaxed) }
    }

    /// How many threads may be outstanding (stuck ones included) at once.
    public final class Budget: Sendable {
        public let limit: Int
        fileprivate let outstanding = Atomic<Int>(0)
        /// The engine's: every stat and cache look-up of thumbnail requests and batches.
        public static let shared = Budget(limit: 32)

        public init(limit: Int) { self.limit = limit }

        /// Threads started and not yet returned.
        public var outstandingCount: Int { outstanding.load(ordering: .relaxed) }
    }

    public static func run<T: Sendable>(within budget: Budget = .shared, _ body: @escaping @Sendable (Token) -> T) async throws(ThumbnailError) -> T {
        let token = Token()
        let waiter = Waiter<T>()
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                    guard waiter.attach(continuation) else { return }
                    guard budget.outstanding.add(1, ordering: .relaxed).newValue <= budget.limit else {
                        budget.outstanding.subtract(1, ordering: .relaxed)
                        waiter.finish(.failure(ThumbnailError(.unreadable, "too many file system calls are stuck (a volume is not answering)")))
                        return
                    }
                    let started = DetachedThread.start(stackSize: 512 * 1024) {
                        let value = body(token)
                        budget.outstanding.subtract(1, ordering: .relaxed)
                        waiter.finish(.success(value))
                    }
                    if !started {
                        budget.outstanding.subtract(1, ordering: .relaxed)
                        waiter.finish(.failure(ThumbnailError(.unreadable, "cannot start a thread: \(String(cString: strerror(errno)))")))
                    }
                }
            } onCancel: {
                token.cancel()
                waiter.finish(.failure(ThumbnailError(.cancelled, "cancelled")))
            }
        } catch let error as ThumbnailError {
            throw error
        } catch {
            throw ThumbnailError(.cancelled, "cancelled")
        }
    }

    /// Resumes the continuation exactly once, whichever comes first: the result or the cancel
    /// (which may even come before the continuation exists).
    private final class Waiter<T: Sendable>: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<T, any Error>?, early: Result<T, ThumbnailError>?, done: Bool)>((nil, nil, false))

        /// Keeps the continuation; false (and resumed) when the outcome is already known.
        func attach(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
            let early: Result<T, ThumbnailError>? = state.withLock {
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

        func finish(_ result: Result<T, ThumbnailError>) {
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
