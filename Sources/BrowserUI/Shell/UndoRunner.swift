import BrowserCore
import Dispatch
import FileSystemKit
import SystemKit
import ThumbnailKit

/// `z`, `Z` and the renames `R` plans, done off the UI thread as the scheduler's group of one
/// (one at a time, in order), thumbnails following the names. The journal is read once at start.
final class UndoRunner: Sendable {
    let journal: UndoJournal
    private let inbox: Inbox
    private let scheduler: BackgroundTasks
    private let cache: ThumbnailCache
    /// The scheduler's group for these, run one at a time.
    static let group = "undo"
    /// Whether a folder is on this computer: the journal's steps and `R`'s renames act on this
    /// computer's files, so from a remote tab they are refused (a path there may name another
    /// file here).
    private let isLocal: @Sendable (String) -> Bool

    init(inbox: Inbox, scheduler: BackgroundTasks, cache: ThumbnailCache, journal: UndoJournal, isLocal: @escaping @Sendable (String) -> Bool = { _ in true }) {
        self.isLocal = isLocal
        self.inbox = inbox
        self.scheduler = scheduler
        self.cache = cache
        self.journal = journal
        serially { journal.load() }
    }

    /// Runs `work` after every undo, redo and rename asked before it.
    private func serially(_ work: @escaping @Sendable () -> Void) {
        scheduler.submit(group: Self.group, volume: "/", priority: .user) { _ in
            // File calls block: on a thread of their own, never on the cooperative pool.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global(qos: .userInitiated).async {
                    work()
                    done.resume()
                }
            }
        }
    }

    func undo(volumes: [Volume], from folder: String = "/") { replay(undo: true, volumes: volumes, from: folder) }
    func redo(volumes: [Volume], from folder: String = "/") { replay(undo: false, volumes: volumes, from: folder) }

    private func replay(undo: Bool, volumes: [Volume], from folder: String) {
        let inbox = self.inbox, journal = self.journal, cache = self.cache
        guard isLocal(folder) else {
            inbox.post(.result(.showMessage("\(undo ? "undo" : "redo") on a remote folder is not done yet; nothing done")))
            return
        }
        let trash = TrashCan(dataHome: ProcessEnvironment.current.dataHome, mountPoints: volumes.map(\.mountPoint))
        serially {
            let outcome = undo ? journal.undo(trash: trash, moved: cache.moveThumbnails, removed: cache.removeThumbnails)
                               : journal.redo(trash: trash, moved: cache.moveThumbnails, removed: cache.removeThumbnails)
            inbox.post(.result(.showMessage(outcome.message)))
            if outcome.succeeded { inbox.post(.result(.reload(select: nil))) }
        }
    }

    /// Renames `changes` in `folder` all at once (swaps included), or none; written down for `z`.
    func rename(_ changes: [BulkRenamePlan.Change], in folder: String, volumes: [Volume]) {
        let inbox = self.inbox, journal = self.journal, cache = self.cache
        guard isLocal(folder) else {
            inbox.post(.result(.showMessage("renaming several names at once on a remote folder is not done yet; nothing renamed")))
            return
        }
        let trash = TrashCan(dataHome: ProcessEnvironment.current.dataHome, mountPoints: volumes.map(\.mountPoint))
        serially {
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
