import Dispatch
import Synchronization

/// A watched folder's changes as `qlbrowse serve` sends them: the first change waits `wait`
/// seconds for the ones after it and they cross together, each name once, so a folder receiving
/// 1,000 files sends a few messages, not 1,000. Past `limit` names in one batch the names are
/// dropped and the batch says "list again" (`relist`): the browser lists the folder anyway, and
/// a link is not filled with names nobody reads one by one. The folder gone sends what waits with
/// `gone`, and nothing after it.
final class RemoteWatchBatches: Sendable {
    /// One message: the names changed (each once, in the order first heard), whether the folder
    /// should be listed again whole, whether it is gone.
    struct Batch: Sendable, Equatable {
        var names: [[UInt8]] = []
        var relist = false
        var gone = false
    }

    private struct State {
        var pending = Batch()
        var seen = Set<[UInt8]>()
        var flushScheduled = false
        var ended = false
    }

    private let state = Mutex(State())
    private let wait: Double
    private let limit: Int
    private let send: @Sendable (Batch) -> Void

    /// `send` hears each batch in order, never after the one that says `gone` or after `end()`.
    init(wait: Double = 0.15, limit: Int = 4096, send: @escaping @Sendable (Batch) -> Void) {
        self.wait = wait
        self.limit = limit
        self.send = send
    }

    /// One change: `name` made, removed, renamed or written (an empty name: list again).
    func changed(_ name: [UInt8]) {
        let scheduling = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            if name.isEmpty || state.pending.names.count >= limit {
                state.pending.relist = true
                state.pending.names = []
                state.seen = []
            } else if !state.pending.relist, state.seen.insert(name).inserted {
                state.pending.names.append(name)
            }
            guard !state.flushScheduled else { return false }
            state.flushScheduled = true
            return true
        }
        if scheduling {
            DispatchQueue.global().asyncAfter(deadline: .now() + wait) { [self] in flush() }
        }
    }

    /// The folder is gone: what waits goes now, with `gone`; nothing more is sent.
    func gone() {
        state.withLock { state in
            guard !state.ended else { return }
            state.ended = true
            state.pending.gone = true
            send(state.pending)
        }
    }

    /// The watch was cancelled: nothing more is sent.
    func end() {
        state.withLock { $0.ended = true }
    }

    /// Sends what waits (its time is up), unless the watch ended meanwhile.
    private func flush() {
        state.withLock { state in
            state.flushScheduled = false
            guard !state.ended, state.pending.relist || !state.pending.names.isEmpty else { return }
            send(state.pending)
            state.pending = Batch()
            state.seen = []
        }
    }

    /// The names as they travel: each name's bytes followed by a NUL (which no name holds).
    static func pack(_ names: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(names.reduce(0) { $0 + $1.count + 1 })
        for name in names { bytes += name; bytes.append(0) }
        return bytes
    }

    /// The names of a payload packed by `pack`; nil when it does not hold `count` of them.
    static func unpack(_ bytes: [UInt8], count: Int) -> [[UInt8]]? {
        guard count > 0 else { return bytes.isEmpty ? [] : nil }
        guard bytes.last == 0 else { return nil }
        let names = bytes.dropLast().split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
        return names.count == count && !names.contains(where: \.isEmpty) ? names : nil
    }
}
