import Dispatch
import Synchronization
import SystemKit

/// Waits for a place's call from synchronous code: the one-shot commands (`qlbrowse files`,
/// `find`), whose `run()` is not async. The call runs on a task of its own; the caller's thread
/// blocks until it ends. Never from the UI thread or a cooperative one.
public enum PlaceCall {
    public static func wait<Value: Sendable>(_ body: @escaping @Sendable () async throws(FileSystemError) -> Value) throws(FileSystemError) -> Value {
        let result = Box<Value>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(FileSystemError) {
                let value = try await body()
                result.value.withLock { $0 = .success(value) }
            } catch {
                result.value.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.value.withLock { $0 }!.get()
    }

    /// `body`'s answer, or `.notResponding` after `seconds` when it has none yet: for a caller
    /// that must answer sooner than the place's own deadline (a bookmark check: 2 s). The call
    /// itself goes on to its own end; its late answer is dropped.
    public static func within<Value: Sendable>(seconds: Double, _ what: String,
                                              _ body: @escaping @Sendable () async throws(FileSystemError) -> Value) async throws(FileSystemError) -> Value {
        let first = Box<Value>()
        let result: Result<Value, FileSystemError> = await withCheckedContinuation { continuation in
            @Sendable func settle(_ outcome: Result<Value, FileSystemError>) {
                let isFirst = first.value.withLock { settled in
                    guard settled == nil else { return false }
                    settled = outcome
                    return true
                }
                if isFirst { continuation.resume(returning: outcome) }
            }
            Task.detached {
                do throws(FileSystemError) { settle(.success(try await body())) } catch { settle(.failure(error)) }
            }
            // A timer off the cooperative threads: busy tasks there must not delay the give-up.
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { settle(.failure(.notResponding(what))) }
        }
        return try result.get()
    }

    private final class Box<Value: Sendable>: Sendable {
        let value = Mutex<Result<Value, FileSystemError>?>(nil)
    }
}
