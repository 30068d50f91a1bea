import Synchronization

/// A "give up" one thread sets and another polls: Esc while a server is being connected stops
/// the probe and kills the mounting tool (`CommandRun`, `ServerProbe`).
public final class CancelSignal: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// Asks whoever polls this to stop.
    public func cancel() { flag.store(true, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
