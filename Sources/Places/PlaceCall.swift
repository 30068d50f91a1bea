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

    private final class Box<Value: Sendable>: Sendable {
        let value = Mutex<Result<Value, FileSystemError>?>(nil)
    }
}
