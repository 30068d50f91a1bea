#if canImport(Glibc)
import Glibc
#endif

/// A detached POSIX thread with a small stack, for calls that may stay stuck in the kernel: one
/// that never returns costs little while it waits, and nobody has to join it.
public enum DetachedThread {
    /// Starts `work` on a new thread; false (with `errno` set) when no thread could be made.
    @discardableResult
    public static func start(stackSize: Int, _ work: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(work)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, stackSize)
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.work()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            errno = status
            return false
        }
        return true
    }

    private final class Box: Sendable {
        let work: @Sendable () -> Void
        init(_ work: @escaping @Sendable () -> Void) { self.work = work }
    }
}
