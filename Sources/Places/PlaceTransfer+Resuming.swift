import FileSystemKit
import SystemKit

/// Going on with a file's copy that a lost link cut off, instead of sending it all again. While a
/// file bigger than one piece is copied, the journal keeps the prefix of its temporary known
/// whole (`PieceLedger`: pieces go four at a time, so past that prefix there can be holes) and
/// the source's size and time. The next copy of the same source into the same folder goes on
/// from that prefix only when everything still agrees: the source is the same size with the same
/// time, the temporary is there and at least that long, and the prefix's last bytes (up to
/// 64 KiB) read from the source and from the temporary both hash as the journal says. In any
/// doubt it starts over, the temporary removed as before: nothing is put in place that was not
/// checked the way a fresh copy is (`checkUnchanged` at the end still holds).
extension PlaceTransfer {
    /// A cut copy's temporary this transfer may go on with, and from where.
    struct Resumption: Sendable {
        let leftover: TransferJournal.Leftover
        let resume: TransferJournal.Resume
    }

    /// Whether `leftover`'s copy can be gone on with (everything checked as above); nil when in doubt.
    func resumePoint(_ leftover: TransferJournal.Leftover) async -> Resumption? {
        guard let resume = leftover.resume, leftover.from == source.name, resume.written > 0, resume.written <= resume.size,
              resume.tailLength > 0, resume.tailLength <= resume.written else { return nil }
        guard let now = try? await source.item(at: leftover.source), now.isRegularFile, now.size == resume.size, now.modified == resume.modified,
              let copy = try? await destination.item(at: leftover.temporary), copy.isRegularFile, copy.size >= resume.written else { return nil }
        let start = resume.written - resume.tailLength
        guard let there = try? await source.read(leftover.source, offset: start, length: resume.tailLength), there.count == resume.tailLength,
              let here = try? await destination.read(leftover.temporary, offset: start, length: resume.tailLength),
              here == there, PieceLedger.hash(there) == resume.tailHash else { return nil }
        return Resumption(leftover: leftover, resume: resume)
    }

    /// The resume point to copy `top` from, once it is listed: `resuming`'s, when `top` is still
    /// the file it was (its journal then says a later copy took its temporary over); otherwise
    /// nil, and `resuming`'s temporary is removed (the copy starts over).
    func adopt(_ resuming: Resumption?, for top: Item) async -> TransferJournal.Resume? {
        guard let resuming else { return nil }
        guard !top.isDirectory, top.size == resuming.resume.size, top.modified == resuming.resume.modified else {
            let removal = FileOperation(kind: .delete, sources: [resuming.leftover.temporary], destination: nil)
            if let done = try? await destination.perform(removal, events: FileOperationEvents()), done.notDone.isEmpty {
                TransferJournal.forget(resuming.leftover)
            }
            return nil
        }
        TransferJournal.forget(resuming.leftover, because: "a later copy went on with its temporary from byte \(resuming.resume.written)")
        return resuming.resume
    }

    /// The ledger of `top`'s pieces, which writes its prefix into `journal` as it grows: for a
    /// file of more than one piece (a smaller one is sent again whole at little cost).
    func ledger(for top: Item, from resume: TransferJournal.Resume?, path: String, journal: TransferJournal?) -> PieceLedger? {
        guard let journal, !top.isDirectory, top.size > piece else { return nil }
        let start = resume.map { PieceLedger.Prefix(written: $0.written, tailLength: $0.tailLength, tailHash: $0.tailHash) }
            ?? PieceLedger.Prefix(written: 0, tailLength: 0, tailHash: 0)
        let size = top.size, modified = top.modified
        return PieceLedger(start: start) { prefix in
            journal.update(path) { item in
                item.resume = TransferJournal.Resume(written: prefix.written, tailLength: prefix.tailLength, tailHash: prefix.tailHash,
                                                     size: size, modified: modified)
            }
        }
    }
}
