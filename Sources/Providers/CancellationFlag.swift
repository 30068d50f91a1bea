import CVips
import Synchronization
import ThumbnailKit

/// Set by the worker's reader when the client cancels a request; checked by providers between
/// steps, and watched by libvips during evaluation so a large decode stops mid-way.
public final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)
    /// The same flag as a C int that libvips' eval callback reads.
    nonisolated(unsafe) let cFlag: UnsafeMutablePointer<Int32>

    public init() {
        cFlag = .allocate(capacity: 1)
        cFlag.initialize(to: 0)
    }

    deinit { cFlag.deallocate() }

    public var isCancelled: Bool { state.load(ordering: .acquiring) }

    public func cancel() {
        state.store(true, ordering: .releasing)
        CVips_flag_set(cFlag)
    }

    /// Throws the engine's cancellation error when the flag is set.
    public func check() throws(ThumbnailError) {
        if isCancelled { throw ThumbnailError(.cancelled, "cancelled") }
    }
}
