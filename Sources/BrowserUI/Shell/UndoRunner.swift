import BrowserCore
import Dispatch
import FileSystemKit
import SystemKit
import ThumbnailKit

/// `z`, `Z` and the renames `R` plans, done off the UI thread on a queue of their own (one at a
/// time, in order), thumbnails following the names. The journal is read once at start.
final class UndoRunner: Sendable {
    let journal: UndoJournal
    private let inbox: Inbox
    private let queue = DispatchQueue(label: "qlbrowse.undo")
    private let cache = ThumbnailCache()

    init(inbox: Inbox, journal: UndoJournal) {
        self.inbox = inbox
        self.journal = journal
        queue.async { journal.load() }
    }

    func undo(volumes: [Volume]) { replay(undo: true, volumes: volumes) }
    func redo(volumes: [Volume]) { replay(undo: false, volumes: volumes) }

    private func replay(undo: Bool, volumes: [Volume]) {
        let inbox = self.inbox, journal = self.journal, cache = self.cache
        let trash = TrashCan(dataHome: ProcessEnvironment.current.dataHome, mountPoints: volumes.map(\.mountPoint))
        queue.async {
            let outcome = undo ? journal.undo(trash: trash, moved: cache.moveThumbnails, removed: cache.removeThumbnails)
                               : journal.redo(trash: trash, moved: cache.moveThumbnails, removed: cache.removeThumbnails)
            inbox.post(.result(.showMessage(outcome.message)))
            if outcome.succeeded { inbox.post(.result(.reload(select: nil))) }
        }
    }

    /// Renames `changes` in `folder` all at once (swaps included), or none; written down for `z`.
    func rename(_ changes: [BulkRenamePlan.Change], in folder: String, volumes: [Volume]) {
        let inbox = self.inbox, journal = self.journal, cache = self.cache
        let trash = TrashCan(dataHome: ProcessEnvironment.current.dataHome, mountPoints: volumes.map(\.mountPoint))
        queue.async {
            let base = folder == "/" ? "" : folder
            var renames: [UndoAction.Rename] = []
            for change in changes {
                guard let stamp = PathStamp.of(base + "/" + change.from) else {
                    inbox.post(.result(.showMessage("\(TerminalText.escaped(change.from)) is gone: nothing renamed")))
                    return
                }
                renames.append(UndoAction.Rename(from: base + "/" + change.from, to: base + "/" + change.to, expected: stamp))
            }
            switch UndoJournal.perform([.renames(renames)], trash: trash, moved: cache.moveThumbnails, removed: cache.removeThumbnails) {
            case .success(let inverse):
                journal.record(UndoStep(title: "the renaming of \(changes.count) name\(changes.count == 1 ? "" : "s")", actions: inverse))
                inbox.post(.result(.showMessage("renamed \(changes.count) (z undoes)")))
                inbox.post(.result(.reload(select: changes.first.map { Array($0.to.utf8) })))
            case .failure(let refusal):
                inbox.post(.result(.showMessage("nothing renamed: \(refusal.reason)")))
            }
        }
    }
}
