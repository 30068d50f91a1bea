import BrowserCore
import Dispatch
import FileSystemKit
import Places
import SystemKit
import ThumbnailKit

/// `z`, `Z` and the renames `R` plans, done off the UI thread as the scheduler's group of one
/// (one at a time, in order), thumbnails following the names. The journal is read once at start.
/// Its steps name this computer's files and the remotes' (by their `ssh://` paths), and act
/// through the router (`PlaceUndoFiles`): `z` in any tab undoes the last step wherever its files
/// are, and `R` renames in a remote folder as in a local one.
final class UndoRunner: Sendable {
    let journal: UndoJournal
    private let inbox: Inbox
    private let scheduler: BackgroundTasks
    private let cache: ThumbnailCache
    /// The scheduler's group for these, run one at a time.
    static let group = "undo"
    /// The places the steps' files are on (nil: this computer's files only).
    private let router: PlaceRouter?

    init(inbox: Inbox, scheduler: BackgroundTasks, cache: ThumbnailCache, journal: UndoJournal, router: PlaceRouter? = nil) {
        self.router = router
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

    /// What the journal's calls go through: this computer's trash for its files, the router for the rest.
    private func files(volumes: [Volume]) -> any UndoFiles {
        let local = LocalUndoFiles(trash: TrashCan(dataHome: ProcessEnvironment.current.dataHome, mountPoints: volumes.map(\.mountPoint)))
        return router.map { PlaceUndoFiles(router: $0, local: local) } ?? local
    }

    /// This computer's thumbnails follow its files (a remote's follow there).
    private var thumbnails: (moved: @Sendable (String, String) -> Void, removed: @Sendable (String) -> Void) {
        let cache = self.cache, router = self.router
        let here: @Sendable (String) -> Bool = { router?.isThisComputer($0) ?? true }
        return ({ if here($0) { cache.moveThumbnails(from: $0, to: $1) } }, { if here($0) { cache.removeThumbnails(for: $0) } })
    }

    func undo(volumes: [Volume], from folder: String = "/") { replay(undo: true, volumes: volumes) }
    func redo(volumes: [Volume], from folder: String = "/") { replay(undo: false, volumes: volumes) }

    private func replay(undo: Bool, volumes: [Volume]) {
        let inbox = self.inbox, journal = self.journal, files = files(volumes: volumes), (moved, removed) = thumbnails
        serially {
            let outcome = undo ? journal.undo(files: files, moved: moved, removed: removed) : journal.redo(files: files, moved: moved, removed: removed)
            // The relisting first: a filter typed once the message shows is the user's, and stays.
            if outcome.succeeded { inbox.post(.result(.reload(select: nil, showsAll: true))) }
            inbox.post(.result(.showMessage(outcome.message)))
        }
    }

    /// Renames `changes` in `folder` all at once (swaps included), or none; written down for `z`.
    func rename(_ changes: [BulkRenamePlan.Change], in folder: String, volumes: [Volume]) {
        let inbox = self.inbox, journal = self.journal, files = files(volumes: volumes), (moved, removed) = thumbnails
        serially {
            let base = folder == "/" ? "" : folder
            var renames: [UndoAction.Rename] = []
            for change in changes {
                let stamp: PathStamp?
                do throws(FileSystemError) { stamp = try files.stamp(base + "/" + change.from) } catch {
                    inbox.post(.result(.showMessage("nothing renamed: \(error.message)")))
                    return
                }
                guard let stamp else {
                    inbox.post(.result(.showMessage("\(TerminalText.escaped(change.from)) is gone: nothing renamed")))
                    return
                }
                renames.append(UndoAction.Rename(from: base + "/" + change.from, to: base + "/" + change.to, expected: stamp))
            }
            switch UndoJournal.perform([.renames(renames)], files: files, moved: moved, removed: removed) {
            case .success(let inverse):
                journal.record(UndoStep(title: "the renaming of \(changes.count) name\(changes.count == 1 ? "" : "s")", actions: inverse))
                inbox.post(.result(.showMessage("renamed \(changes.count) (z undoes)")))
                inbox.post(.result(.reload(select: changes.first.map { Array($0.to.utf8) }, showsAll: true)))
            case .failure(let refusal):
                inbox.post(.result(.showMessage("nothing renamed: \(refusal.reason)")))
            }
        }
    }
}
