import BrowserCore
import FileSystemKit
import Places
import Synchronization
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
    private let logFile: String?
    private let state = Mutex<(pool: WorkerPool?, task: Task<Void, Never>?, busy: Bool)>((nil, nil, false))

    init(inbox: Inbox, logFile: String?) {
        self.inbox = inbox
        self.logFile = logFile
    }

    /// Writes `edits` of `path` and puts the result beside it (`copy`) or in its place.
    func save(path: String, edits: [FileEdit], copy: Bool) {
        let inbox = self.inbox, logFile = self.logFile
        state.withLock { state in
            let pool = state.pool ?? WorkerPool(size: 1, limits: EditSaver.workerLimits, stderrPath: logFile)
            state.pool = pool
            state.busy = true
            let saver = EditSaver(placement: copy ? .copy : .replace, keepsModificationTime: false, generator: PreviewGenerator(pool: pool))
            state.task = Task.detached(priority: .userInitiated) { [weak self] in
                do {
                    let outcome = try await saver.apply(edits, to: path)
                    inbox.post(.result(.editSaved(EditOutcome(path: path, output: outcome.output, trashed: outcome.trashedItem,
                                                              summary: Self.summary(outcome, copy: copy)))))
                } catch is CancellationError {
                    inbox.post(.result(.editFailed(path: path, reason: "cancelled; the original is as it was")))
                } catch {
                    let reason = (error as? ThumbnailError)?.reason ?? "\(error)"
                    inbox.post(.result(.editFailed(path: path, reason: Task.isCancelled ? "cancelled; the original is as it was" : reason)))
                }
                self?.state.withLock { $0.busy = false }
            }
        }
    }

    /// Stops the edit being saved; its temporaries go (the answer says "cancelled").
    func cancel() {
        state.withLock { $0.task?.cancel() }
    }

    /// Waits (at most `seconds`) until no edit runs: a cancelled one has removed its temporary.
    func waitUntilIdle(seconds: Double) {
        let deadline = SystemTime.now() + Int64(seconds * 1e9)
        while state.withLock({ $0.busy }) && SystemTime.now() < deadline { usleep(20_000) }
    }

    func shutdown() async {
        let pool = state.withLock { $0.pool }
        await pool?.shutdown()
    }

    /// `U` after an edit replaced a file: the edited file goes to the Trash (nothing is lost) and
    /// the original comes back under its own name.
    func restoreReplaced(_ original: TrashCan.Item, edited: String, volumes: [Volume]) {
        let inbox = self.inbox
        let place = LocalPlace(volumes: { volumes })
        Task.detached {
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
