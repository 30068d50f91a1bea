import Dispatch
import FileSystemKit
import Synchronization

/// The batches of a listing as `qlbrowse serve` sends them: a batch that is not the last waits up
/// to `wait` seconds for the ones after it, and they cross together. Locally the first 200
/// entries come first so that a screen shows at once; over a link the rest of a 2,000-photo
/// folder follows a few milliseconds later, and a browser that drew the first batch would ask
/// for the pictures of a screen it is about to re-sort, then cancel them (measured: 30 of 36
/// thumbnail requests of the first grid cancelled, the remote's workers busy with them). A
/// listing that takes longer still shows its entries every `wait` seconds.
final class RemoteListingBatches: Sendable {
    private struct State {
        var pending = EntryStore()
        var flushScheduled = false
        var ended = false
    }

    private let state = Mutex(State())
    private let wait: Double
    private let send: @Sendable (EntryStore, Bool) -> Void

    /// `send` hears each batch to send and whether it is the last, in order, never after the last.
    init(wait: Double = 0.1, send: @escaping @Sendable (EntryStore, Bool) -> Void) {
        self.wait = wait
        self.send = send
    }

    /// A batch of the listing; `complete` sends it with everything waiting at once.
    func add(_ batch: EntryStore, complete: Bool) {
        let scheduling = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            _ = state.pending.append(contentsOf: batch)
            if complete {
                state.ended = true
                send(state.pending, true)
                state.pending = EntryStore()
                return false
            }
            guard !state.pending.isEmpty, !state.flushScheduled else { return false }
            state.flushScheduled = true
            return true
        }
        if scheduling {
            DispatchQueue.global().asyncAfter(deadline: .now() + wait) { [self] in flush() }
        }
    }

    /// Sends what waits (its time is up), unless the listing ended meanwhile.
    private func flush() {
        state.withLock { state in
            state.flushScheduled = false
            guard !state.ended, !state.pending.isEmpty else { return }
            send(state.pending, false)
            state.pending = EntryStore()
        }
    }

    /// The listing failed or was cancelled: nothing more is sent.
    func end() {
        state.withLock { $0.ended = true }
    }
}
