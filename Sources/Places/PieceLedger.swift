import Synchronization

/// The pieces of one file a transfer has written, kept so that a copy cut off can later go on
/// from where it stopped: pieces go several at a time, each at its own offset, so a temporary
/// cut off can have holes; only the contiguous prefix from offset 0 (`written`) is known whole.
/// With it goes a hash of the prefix's last bytes (up to `tailSize`), which a later run compares
/// with the source and the temporary as they are then before it trusts the prefix.
///
/// `note` hears the new prefix when it grew and at least `interval` seconds passed since it last
/// heard one (the journal is written durably; not once per piece on a fast link); `flush` gives
/// the last one now, unheard or not (the copy stopped).
public final class PieceLedger: Sendable {
    /// How many of the prefix's last bytes are hashed (one SFTP write's worth).
    public static let tailSize = 64 << 10

    /// A prefix known whole: its end and its last bytes' hash.
    public struct Prefix: Sendable, Equatable {
        public var written: Int
        public var tailLength: Int
        public var tailHash: UInt64

        public init(written: Int, tailLength: Int, tailHash: UInt64) {
            self.written = written
            self.tailLength = tailLength
            self.tailHash = tailHash
        }
    }

    private struct State {
        var prefix: Prefix
        /// Pieces done past the prefix (a hole before them): offset → (length, hash of their tail).
        var ahead: [Int: (length: Int, tailLength: Int, tailHash: UInt64)] = [:]
        var heard: Prefix?
        var heardAt: ContinuousClock.Instant?
    }

    private let state: Mutex<State>
    private let interval: Duration
    private let note: @Sendable (Prefix) -> Void

    /// A ledger for a file written from `start` (0, or where a resumed copy goes on).
    public init(start: Prefix = Prefix(written: 0, tailLength: 0, tailHash: 0), interval: Duration = .milliseconds(250),
                note: @escaping @Sendable (Prefix) -> Void) {
        state = Mutex(State(prefix: start, heard: start))
        self.interval = interval
        self.note = note
    }

    /// The prefix known whole now.
    public var prefix: Prefix { state.withLock { $0.prefix } }

    /// The piece `bytes` at `offset` is written (its write answered).
    public func written(_ bytes: [UInt8], at offset: Int) {
        let tail = bytes.suffix(Self.tailSize)
        let hash = Self.hash(tail)
        let due: Prefix? = state.withLock { state in
            state.ahead[offset] = (bytes.count, tail.count, hash)
            while let next = state.ahead.removeValue(forKey: state.prefix.written) {
                state.prefix = Prefix(written: state.prefix.written + next.length, tailLength: next.tailLength, tailHash: next.tailHash)
            }
            let now = ContinuousClock.now
            guard state.heard != state.prefix, state.heardAt.map({ now - $0 >= interval }) ?? true else { return nil }
            state.heard = state.prefix
            state.heardAt = now
            return state.prefix
        }
        if let due { note(due) }
    }

    /// Gives `note` the prefix now, if it has not heard it yet.
    public func flush() {
        let due: Prefix? = state.withLock { state in
            guard state.heard != state.prefix else { return nil }
            state.heard = state.prefix
            state.heardAt = ContinuousClock.now
            return state.prefix
        }
        if let due { note(due) }
    }

    /// FNV-1a, 64 bits: tells a block that changed from one that did not (not a defence against
    /// someone who wants a match; the source's size and time are checked too).
    public static func hash<Bytes: Collection>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
