import Dispatch
import Synchronization
import SystemKit

/// A deadline without progress for one remote request: `expired` runs once when `seconds` pass
/// without a `beat()` (an answer heard) and before `finish()`. Checked by a timer off the
/// cooperative threads, so busy tasks never delay a give-up.
final class RemoteDeadline: Sendable {
    private let seconds: Double
    private let lastBeat = Atomic<Int64>(SystemTime.now())
    private let finished = Atomic<Bool>(false)
    private let expired: @Sendable () -> Void

    init(seconds: Double, expired: @escaping @Sendable () -> Void) {
        self.seconds = seconds
        self.expired = expired
        check(after: seconds)
    }

    /// Something was heard: the deadline starts again.
    func beat() { lastBeat.store(SystemTime.now(), ordering: .relaxed) }

    /// The request ended: the deadline is off.
    func finish() { finished.store(true, ordering: .relaxed) }

    private func check(after delay: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + max(delay, 0.05)) { [self] in
            guard !finished.load(ordering: .relaxed) else { return }
            let silent = Double(SystemTime.now() - lastBeat.load(ordering: .relaxed)) / 1e9
            if silent >= seconds {
                if !finished.exchange(true, ordering: .relaxed) { expired() }
            } else {
                check(after: seconds - silent)
            }
        }
    }
}
