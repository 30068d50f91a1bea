#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// A copy between places written down on this computer as it goes (`PlaceTransfer`), so that
/// whatever stops it — the link cut, the remote gone, qlbrowse killed — leaves a record of what
/// was copied, what was not, and which temporary the interrupted item left where: one JSON file,
/// rewritten (durably, atomically) at each item's step. A copy that ends with every item done
/// removes it; otherwise it stays, named in the report, for the user to read.
public final class TransferJournal: Sendable {
    /// One chosen item and how far it got.
    public struct Item: Codable, Sendable, Equatable {
        /// `done`: copied and in place; `moved`: that, and its source then put in its place's trash.
        public enum State: String, Codable, Sendable { case pending, copying, done, moved, skipped, notCopied = "not copied" }
        public var source: String
        public var state: State
        /// Its final path once placed.
        public var target: String?
        /// The temporary it is written under while `copying` (and left under, when it could not be removed).
        public var temporary: String?
        /// Why it was not copied (or, in a move, why its source was kept).
        public var reason: String?
        /// In a move: where its source went in the trash of the place it came from.
        public var trashed: String?
        /// A file's copy that a later copy may go on with: how much of `temporary` is known
        /// whole, and the source as it was (nil: start over).
        public var resume: Resume?
    }

    /// Where a file's copy stopped (`PieceLedger`): its temporary's first `written` bytes are
    /// in, whole, the last `tailLength` of them hashing to `tailHash`, copied from a source of
    /// `size` bytes last changed at `modified`. A later copy goes on from there only when the
    /// source and the temporary both still agree (`PlaceTransfer.resumePoint`).
    public struct Resume: Codable, Sendable, Equatable {
        public var written: Int
        public var tailLength: Int
        public var tailHash: UInt64
        public var size: Int
        public var modified: Int
    }

    /// The whole record, as the file holds it.
    public struct Record: Codable, Sendable, Equatable {
        /// "copy" or "move" (nil in journals from before moves: a copy).
        public var kind: String?
        public var from: String
        public var to: String
        public var destination: String
        public var items: [Item]
    }

    /// Where the journal is written.
    public let path: String
    private let record: Mutex<Record>

    /// A journal in `folder` (`$XDG_STATE_HOME/qlbrowse/transfers` by default) for copying
    /// `sources` from the place named `from` into `destination` on the place named `to`.
    public init(folder: String = ProcessEnvironment.current.stateHome + "/qlbrowse/transfers", kind: FileOperation.Kind = .copy,
                from: String, to: String, destination: String, sources: [String]) {
        path = folder + "/\(kind.rawValue)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        record = Mutex(Record(kind: kind.rawValue, from: from, to: to, destination: destination,
                              items: sources.map { Item(source: $0, state: .pending) }))
        Self.running.withLock { _ = $0.insert(path) }
        save()
    }

    /// What the journal says now.
    public var current: Record { record.withLock { $0 } }

    /// Changes the item of `source` and writes the journal.
    func update(_ source: String, _ change: (inout Item) -> Void) {
        record.withLock { record in
            if let index = record.items.firstIndex(where: { $0.source == source }) { change(&record.items[index]) }
        }
        save()
    }

    /// The copy ended: the journal goes when every item was done (moved, in a move) or skipped;
    /// its path when it stays.
    @discardableResult
    func finish() -> String? {
        Self.running.withLock { _ = $0.remove(path) }
        let complete = record.withLock { record in
            let whole: Item.State = record.kind == FileOperation.Kind.move.rawValue ? .moved : .done
            return record.items.allSatisfy { $0.state == whole || $0.state == .skipped }
        }
        guard complete else { return path }
        _ = unlink(path)
        return nil
    }

    private func save() {
        let bytes = record.withLock { record in
            (try? JSONEncoder().encode(record)).map { [UInt8]($0) } ?? []
        }
        try? AtomicFileWriter.writeState(bytes, to: path)
    }
}
