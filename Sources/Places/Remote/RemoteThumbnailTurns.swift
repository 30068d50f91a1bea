import Synchronization

/// The order `qlbrowse serve` makes thumbnails in: the order they were asked, `width` at a time.
/// The browser asks for a screen's pictures nearest first, then the rows ahead; run all at once,
/// their tasks reach the workers in any order (measured: the first grid's last visible picture
/// came after ten of the rows ahead). A request cancelled while it waits takes its turn and
/// ends at once.
final class RemoteThumbnailTurns: Sendable {
    private struct State {
        var running = 0
        var waiting: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    let width: Int

    /// `width`: how many run at once (a few more than the workers, so that none waits for work).
    init(width: Int) {
        self.width = max(1, width)
    }

    /// Runs `start` now if fewer than `width` run, else when the ones asked before have had
    /// their turn. `start` must end its turn with `leave()` once.
    func enter(_ start: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.running < width else {
                state.waiting.append(start)
                return false
            }
            state.running += 1
            return true
        }
        if now { start() }
    }

    /// A turn is over: the next waiting request starts.
    func leave() {
        let next = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?()
    }
}
