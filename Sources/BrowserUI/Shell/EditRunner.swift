import BrowserCore
import Places
import FileSystemKit
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Saves Quick Look's edits off the UI thread, one at a time, in a worker of their own (started
/// with the first edit, with an edit's long deadline), and puts an edited file's original back
/// for `U`. Answers come back through the inbox as actions.
final class EditRunner: Sendable {
    private let inbox: Inbox
    private let scheduler: BackgroundTasks
    /// The edits' own worker, with an edit's long deadline (`EditSaver.workerLimits`), started with the first edit.
    private let workers: any WorkerBackend
    /// The scheduler's group of edits being saved.
    static let group = "edit"
    /// Whether a path is on this computer: one that is not is edited through `place` (fetched,
    /// edited here, sent back: `PlaceEditSaver`), or refused when there is none.
    private let isLocal: @Sendable (String) -> Bool
    /// The browser's places (its router), for a file in a remote tab.
    private let place: (any Place)?

    init(inbox: Inbox, scheduler: BackgroundTasks, workers: any WorkerBackend, isLocal: @escaping @Sendable (String) -> Bool = { _ in true },
         place: (any Place)? = nil) {
        self.inbox = inbox
        self.scheduler = scheduler
        self.workers = workers
        self.isLocal = isLocal
        self.place = place
    }

    /// Writes `edits` of `path` and puts the result beside it (`copy`) or in its place.
    func save(path: String, edits: [FileEdit], copy: Bool, volume: String) {
        let inbox = self.inbox
        let remote = isLocal(path) ? nil : place
        guard isLocal(path) || remote != nil else {
            inbox.post(.result(.editFailed(path: path, reason: "edits on a remote folder are not done here; the original is as it was")))
            return
        }
        let generator = PreviewGenerator(workers: workers)
        let saver = EditSaver(placement: copy ? .copy : .replace, keepsModificationTime: false, generator: generator)
        scheduler.submit(group: Self.group, volume: volume, priority: .user) { context in
            do {
                try Task.checkCancellation()
                let outcome = if let remote {
                    try await PlaceEditSaver(place: remote, placement: copy ? .copy : .replace, generator: generator).apply(edits, to: path)
                } else {
                    try await saver.apply(edits, to: path)
                }
                inbox.post(.result(.editSaved(EditOutcome(path: path, output: outcome.output, trashed: outcome.trashedItem,
                                                          summary: Self.summary(outcome, copy: copy)))))
            } catch is CancellationError {
                inbox.post(.result(.editFailed(path: path, reason: "cancelled; the original is as it was")))
            } catch {
                let reason = (error as? ThumbnailError)?.reason ?? "\(error)"
                inbox.post(.result(.editFailed(path: path, reason: Task.isCancelled || context.isCancelled ? "cancelled; the original is as it was" : reason)))
            }
        }
    }

    /// Stops the edit being saved; its temporaries go (the answer says "cancelled").
    func cancel() {
        scheduler.cancel(group: Self.group)
    }

    /// Waits (at most `seconds`) until no edit runs: a cancelled one has removed its temporary.
    func waitUntilIdle(seconds: Double) {
        scheduler.waitUntilIdle(group: Self.group, seconds: seconds)
    }

    func shutdown() async {
        await workers.shutdown(waitSeconds: 2)
    }

    /// `U` after an edit replaced a file: the edited file goes to the Trash (nothing is lost) and
    /// the original comes back under its own name.
    func restoreReplaced(_ original: TrashCan.Item, edited: String, volumes: [Volume]) {
        let inbox = self.inbox
        // A remote tab's original is in its remote's trash: put back through the router.
        let place: any Place = isLocal(original.originalPath) ? LocalPlace(volumes: { volumes }) : (self.place ?? LocalPlace(volumes: { volumes }))
        let volume = Volume.containing(original.originalPath, in: volumes)?.mountPoint ?? "/"
        scheduler.submit(group: Self.group, volume: volume, priority: .user) { _ in
            let message: String
            do throws(FileSystemError) {
                let editedItem = try await place.trash(edited)
                do throws(FileSystemError) {
                    let back = try await place.restore(original)
                    message = "the original \(FileOperation.escapedName(back)) is back; the edited one is in the Trash"
                } catch where error.code == .notResponding {
                    message = "cannot restore: the volume is not responding"
                } catch {
                    _ = try? await place.restore(editedItem)
                    message = "cannot restore the original: \(TerminalText.escaped(error.message))"
                }
            } catch where error.code == .notResponding {
                message = "cannot restore: the volume is not responding"
            } catch {
                message = "cannot move the edited file aside: \(TerminalText.escaped(error.message))"
            }
            inbox.post(.result(.showMessage(message)))
            inbox.post(.result(.editRestored(path: original.originalPath)))
        }
    }

    /// What the browser says once an edit is saved: what it did, where it went, what the worker noticed.
    static func summary(_ outcome: EditSaver.Outcome, copy: Bool) -> String {
        let saved = copy ? "saved as \(FileOperation.escapedName(outcome.output))" : "saved; the original is in the Trash (U puts it back)"
        return ([saved] + outcome.details).joined(separator: " · ")
    }
}
