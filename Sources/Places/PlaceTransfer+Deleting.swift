import FileSystemKit
import SystemKit

extension PlaceTransfer {
    /// A move's second step from a place without a trash (an SFTP server), taken only with the
    /// user's yes (`FileOperation.deletesSourcesForGood`): once `path`'s copy is in place at
    /// `target`, every file and folder of it is looked up there (a file of the size it had, a
    /// folder) and only then is the source deleted for good (`source.perform(.delete)`). A copy
    /// that does not check, or a delete refused, keeps the source: reported, never lost. No
    /// undo can bring the source back (nothing was trashed); the journal says it was deleted.
    func deleteSource(_ path: String, _ items: [Item], placedAt target: String, report: inout FileOperation.Report,
                      journal: TransferJournal?) async {
        if let mismatch = await copyMismatch(items, placedAt: target) {
            return keep(path, because: "copied to \(TerminalText.escaped(target)), but \(mismatch); the original kept", report: &report, journal: journal)
        }
        let removal = FileOperation(kind: .delete, sources: [path], destination: nil)
        do throws(FileSystemError) {
            let done = try await source.perform(removal, events: FileOperationEvents())
            guard done.notDone.isEmpty else {
                let why = done.failures.first ?? "not deleted"
                return keep(path, because: "copied to \(TerminalText.escaped(target)), the original not deleted: \(why)", report: &report, journal: journal)
            }
        } catch {
            return keep(path, because: "copied to \(TerminalText.escaped(target)), the original kept: \(error.message)", report: &report, journal: journal)
        }
        report.done.append(path)
        journal?.update(path) { $0.state = .moved; $0.reason = "the original deleted for good on \(source.name) (it has no trash)" }
    }

    /// What of the copy at `target` is not as its source was listed, or nil when all of it is.
    private func copyMismatch(_ items: [Item], placedAt target: String) async -> String? {
        guard let top = items.first else { return nil }
        for item in items {
            let at = item.relative == top.relative ? target : target + item.relative.dropFirst(top.relative.count)
            guard let copy = try? await destination.item(at: at) else { return "\(TerminalText.escaped(at)) is not there" }
            if copy.isDirectory != item.isDirectory || (!item.isDirectory && copy.size != item.size) {
                return "\(TerminalText.escaped(at)) is not as its original (\(copy.size) bytes, \(item.size) expected)"
            }
        }
        return nil
    }

    private func keep(_ path: String, because why: String, report: inout FileOperation.Report, journal: TransferJournal?) {
        report.notDone.append(path)
        report.failures.append("\(TerminalText.escaped(FileOperation.name(path))): \(why)")
        journal?.update(path) { $0.reason = why }
    }
}
