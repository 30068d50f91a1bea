import FileSystemKit
import SystemKit

extension PlaceTransfer {
    /// Removes from `folder` (on `destination`) the temporaries that ended transfers left there,
    /// as their journals beside `journal` name them (`TransferJournal.leftovers`): a copy cut by
    /// a dead link could not remove its own, and nothing on a remote or SFTP server knows it is
    /// ours. Each one removed is in `report.removedLeftovers` and written into its journal; one
    /// that is gone already is only written down; one that cannot be removed stays, unsaid.
    /// A file's temporary that one of `sources` can go on with (`resumePoint`: the furthest
    /// along, when several) is kept instead, and returned under its source.
    func removeLeftovers(in folder: String, journal: TransferJournal, sources: [String], report: inout FileOperation.Report) async -> [String: Resumption] {
        var resumable: [String: Resumption] = [:]
        let leftovers = journal.leftovers(in: folder, on: destination.name).sorted { ($0.resume?.written ?? 0) > ($1.resume?.written ?? 0) }
        for leftover in leftovers {
            if resumable[leftover.source] == nil, sources.contains(leftover.source), let resumption = await resumePoint(leftover) {
                resumable[leftover.source] = resumption
                continue
            }
            do throws(FileSystemError) {
                _ = try await destination.item(at: leftover.temporary)
            } catch {
                if error.code == .notFound { TransferJournal.forget(leftover) }
                continue
            }
            let removal = FileOperation(kind: .delete, sources: [leftover.temporary], destination: nil)
            guard let done = try? await destination.perform(removal, events: FileOperationEvents()), done.notDone.isEmpty else { continue }
            report.removedLeftovers.append(leftover.temporary)
            TransferJournal.forget(leftover)
        }
        return resumable
    }

    /// A move from a place without a trash (SFTP) without the user's yes to deleting its sources
    /// for good (`FileOperation.deletesSourcesForGood`): refused whole, before anything is copied.
    func refusedMove(_ operation: FileOperation, journal: TransferJournal?) -> FileOperation.Report {
        var report = FileOperation.Report()
        let why = "not moved: \(TerminalText.escaped(source.name)) is reached by SFTP and has no trash, so a move would delete "
            + "the original for good; copy it, then delete it (or: qlbrowse files move --delete-sources)"
        for path in operation.sources {
            report.notDone.append(path)
            report.failures.append("\(TerminalText.escaped(FileOperation.name(path))): \(why)")
            journal?.update(path) { $0.state = .notCopied; $0.reason = why }
        }
        return report
    }

    /// Why an overwrite on a place without a trash is not done.
    func notOverwritten(_ target: String) -> FileSystemError {
        FileSystemError(code: .unsupported, path: target,
                        context: "not overwritten: \(TerminalText.escaped(destination.name)) is reached by SFTP and has no trash, so the "
                            + "item there would be lost; keep both, or skip")
    }

    /// Asks `events.resolve` on a thread of its own and awaits the answer: the user may take
    /// minutes, and a cooperative thread held that long (two pastes waiting is both of them on
    /// two cores) would stop every other task of the process, pictures and remote calls alike.
    static func ask(_ events: FileOperationEvents, _ conflict: FileOperation.Conflict) async -> (FileOperation.ConflictChoice, applyToAll: Bool) {
        await withCheckedContinuation { continuation in
            let started = DetachedThread.start(stackSize: 256 * 1024) { continuation.resume(returning: events.resolve(conflict)) }
            // No thread to be had: skipping keeps everything as it is.
            if !started { continuation.resume(returning: (.skip, false)) }
        }
    }
}
