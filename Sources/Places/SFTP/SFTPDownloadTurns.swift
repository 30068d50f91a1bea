import Synchronization

/// How many whole-file reads an `SFTPPlace` runs at once, the rest waiting their turn in the
/// order asked (the browser asks for what is on screen, nearest first). Forty reads sharing a
/// 20 Mbit/s link all end together after 15 s, and no full picture shows before; three at a
/// time finish one after another, a picture every few tenths of a second. A read whose asker
/// went (scrolled away) leaves the queue.
final class SFTPDownloadTurns: Sendable {
    private struct State {
        var free: Int
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(slots: Int) {
        state = Mutex(State(free: max(1, slots)))
    }

    /// Waits for a turn; false when the task was cancelled first (then no turn is held).
    func take() async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    if state.free > 0 {
                        state.free -= 1
                        return true
                    }
                    state.waiting.append((id, continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
    }

    /// Gives a turn back: to the first waiting, else to the pool.
    func give() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
