import BrowserCore
import Dispatch
import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Carries out pastes, trashing and deleting as jobs in the jobs panel: each on a thread of its
/// own (through `VolumeIO`, so a hung volume never holds anything else), with progress ten times
/// a second, pause and cancel, questions about taken names put to the user, and thumbnails that
/// follow their files. Renames, new files and restores are quick single calls, also off the UI thread.
final class FileJobRunner: Sendable {
    private final class Job: Sendable {
        let operation: FileOperation
        let answer = Mutex<(FileOperation.ConflictChoice, Bool)?>(nil)
        let answered = DispatchSemaphore(value: 0)
        init(_ operation: FileOperation) { self.operation = operation }
    }

    private let inbox: Inbox
    private let scheduler: BackgroundTasks
    /// The scheduler's group of file jobs and quick file calls.
    static let group = "files"
    /// The thumbnails that follow the files moved, renamed and removed.
    let cache: ThumbnailCache
    private let verifiesCopies: Bool
    /// Where each finished operation is written down, for `z`.
    let journal: UndoJournal

    init(inbox: Inbox, scheduler: BackgroundTasks, cache: ThumbnailCache, verifiesCopies: Bool, journal: UndoJournal) {
        self.inbox = inbox
        self.scheduler = scheduler
        self.cache = cache
        self.verifiesCopies = verifiesCopies
        self.journal = journal
    }

    /// Starts a copy, move, trash or delete; returns the job's id.
    @discardableResult
    func start(_ kind: FileOperation.Kind, sources: [String], destination: String?, volumes: [Volume]) -> Int {
        let id = JobIdentifiers.next()
        let operation = FileOperation(kind: kind, sources: sources, destination: destination, verifiesContent: verifiesCopies)
        let job = Job(operation)
        let place = destination ?? sources.first.map { String($0[..<($0.lastIndex(of: "/") ?? $0.startIndex)]) } ?? "/"
        let volume = Volume.containing(place, in: volumes)
        let status = JobStatus(id: id, kind: .file(kind), folder: place)
        let trash = TrashCan(dataHome: Self.dataHome(), mountPoints: volumes.map(\.mountPoint))
        scheduler.submit(group: Self.group, volume: volume?.mountPoint ?? "/", priority: .user, id: id, report: status, attachment: job) { context in
            // A question still open is answered "skip".
            context.onCancel {
                job.operation.cancel()
                job.answered.signal()
            }
            await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
                self.run(job, id: id, status: status, volume: volume, place: place, trash: trash, report: context.report) { ended.resume() }
            }
        }
        return id
    }

    /// The operation on its volume's thread, reported as it goes; `ended` once the final status is told.
    private func run(_ job: Job, id: Int, status: JobStatus, volume: Volume?, place: String, trash: TrashCan,
                     report reportStatus: @escaping @Sendable (JobStatus) -> Void, ended: @escaping @Sendable () -> Void) {
        let operation = job.operation, kind = operation.kind, sources = operation.sources, destination = operation.destination
        let inbox = self.inbox, cache = self.cache
        let started = ContinuousClock.now
        VolumeIO.shared.run(volume: volume?.mountPoint ?? "/", deadline: 30, { heartbeat -> JobStatus in
            var result = status
            if kind == .copy || kind == .move, let destination {
                let capabilities = VolumeCapabilities.probe(folder: destination, fsType: volume?.fsType ?? "", trial: true)
                if let problem = operation.problem(destinationCapabilities: capabilities) {
                    result.phase = .interrupted(problem)
                    result.detail = "nothing was written"
                    return result
                }
            }
            let lastReport = Mutex(ContinuousClock.now)
            let report = operation.run(trash: trash, resolve: { conflict in
                inbox.post(.result(.conflictAsked(job: id, conflict)))
                job.answered.wait()
                return job.answer.withLock { $0 } ?? (.skip, false)
            }, progress: { progress in
                heartbeat.beat()
                let now = ContinuousClock.now
                guard lastReport.withLock({ last in
                    guard now - last > .milliseconds(100) else { return false }
                    last = now
                    return true
                }) else { return }
                var update = status
                update.bytesDone = progress.bytesDone
                update.bytesTotal = progress.bytesTotal
                update.total = progress.itemsTotal
                update.itemsDone = progress.itemsDone
                update.phase = .running
                update.isPaused = operation.isPaused
                update.elapsed = Double(seconds: ContinuousClock.now - started)
                reportStatus(update)
            }, moved: { old, new in cache.moveThumbnails(from: old, to: new) },
               removed: { path in cache.removeThumbnails(for: path) })
            result.total = sources.count
            result.itemsDone = report.done.count
            result.skipped = report.skipped.count
            result.failed = report.notDone.count
            result.detail = report.summary
            result.bytesDone = result.bytesTotal
            if report.cancelled {
                result.phase = .cancelled
            } else if let failure = report.failures.first {
                result.phase = .interrupted(failure)
            } else {
                result.phase = .finished
            }
            if !report.trashed.isEmpty { inbox.post(.result(.trashed(report.trashed))) }
            self.journal.record(UndoSteps.of(kind, report: report, destination: destination))
            return result
        }, completion: { outcome in
            var final = status
            switch outcome {
            case .done(let result): final = result
            case .timedOut:
                final.phase = .interrupted("\(volume?.label ?? place) is not responding")
                final.detail = "stopped waiting; what was copied is listed when the volume answers again"
            case .refused:
                final.phase = .interrupted("\(volume?.label ?? place) is not responding")
                final.detail = "nothing was done"
            }
            final.elapsed = Double(seconds: ContinuousClock.now - started)
            reportStatus(final)
            inbox.post(.result(.showMessage(JobText.ending(final))))
            inbox.post(.result(.reload(select: nil)))
            ended()
        })
    }

    func cancel(_ id: Int) {
        scheduler.cancel(id, group: Self.group)
    }

    func pause(_ id: Int, _ paused: Bool) {
        (scheduler.attachment(of: id) as? Job)?.operation.setPaused(paused)
    }

    func answer(_ id: Int, _ choice: FileOperation.ConflictChoice, applyToAll: Bool) {
        guard let job = scheduler.attachment(of: id) as? Job else { return }
        job.answer.withLock { $0 = (choice, applyToAll) }
        job.answered.signal()
    }

    func cancelAll() {
        scheduler.cancel(group: Self.group)
    }

    /// Waits (at most `seconds`) until no job runs: a cancelled copy has removed its temporary.
    func waitUntilIdle(seconds: Double) {
        scheduler.waitUntilIdle(group: Self.group, seconds: seconds)
    }

    /// Renames within the folder; never over an existing name.
    func rename(_ from: String, to: String, volume: String) {
        let inbox = self.inbox, cache = self.cache, journal = self.journal
        scheduler.io(group: Self.group, volume: volume, deadline: 5, { () -> Int32 in
            do throws(FileSystemError) {
                try FileRename.noReplaceOrLook(from, to: to)
                if let stamp = PathStamp.of(to) {
                    journal.record(UndoStep(title: "the rename of \(FileOperation.escapedName(from))", actions: [.rename(from: to, to: from, expected: stamp)]))
                }
                return 0
            } catch {
                return error.errno
            }
        }, completion: { outcome in
            let name = Array(FileOperation.name(to).utf8)
            switch outcome {
            case .done(0):
                cache.moveThumbnails(from: from, to: to)
                inbox.post(.result(.reload(select: name)))
            case .done(EEXIST): inbox.post(.result(.showMessage("\(FileOperation.escapedName(to)) exists already; nothing renamed")))
            case .done(let code): inbox.post(.result(.showMessage("cannot rename: \(String(cString: strerror(code)))")))
            case .timedOut, .refused: inbox.post(.result(.showMessage("cannot rename: the volume is not responding")))
            }
        })
    }

    /// Makes an empty file or a folder; never over an existing name.
    func create(_ path: String, folder: Bool, volume: String) {
        let inbox = self.inbox, journal = self.journal
        scheduler.io(group: Self.group, volume: volume, deadline: 5, { () -> Int32 in
            if folder {
                guard mkdir(path, 0o755) == 0 else { return errno }
            } else {
                let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                guard fd >= 0 else { return errno }
                close(fd)
            }
            if let stamp = PathStamp.of(path) {
                journal.record(UndoStep(title: "the new \(folder ? "folder" : "file") \(FileOperation.escapedName(path))", actions: [.discard(path, expected: stamp)]))
            }
            return 0
        }, completion: { outcome in
            let name = Array(FileOperation.name(path).utf8)
            switch outcome {
            case .done(0): inbox.post(.result(.reload(select: name)))
            case .done(EEXIST): inbox.post(.result(.showMessage("\(FileOperation.escapedName(path)) exists already")))
            case .done(let code): inbox.post(.result(.showMessage("cannot create \(FileOperation.escapedName(path)): \(String(cString: strerror(code)))")))
            case .timedOut, .refused: inbox.post(.result(.showMessage("cannot create: the volume is not responding")))
            }
        })
    }

    /// Puts trashed items back where they were (beside, as "name (2)", if the place is taken).
    func restore(_ items: [TrashCan.Item], volumes: [Volume]) {
        let inbox = self.inbox
        let trash = TrashCan(dataHome: Self.dataHome(), mountPoints: volumes.map(\.mountPoint))
        scheduler.io(group: Self.group, volume: Volume.containing(items.first?.originalPath ?? "/", in: volumes)?.mountPoint ?? "/", deadline: 10, { () -> (Int, [String]) in
            var restored = 0, problems: [String] = []
            for item in items {
                do throws(TrashCan.Failure) {
                    _ = try trash.restore(item)
                    restored += 1
                } catch {
                    problems.append(error.message)
                }
            }
            return (restored, problems)
        }, completion: { outcome in
            switch outcome {
            case .done(let (restored, problems)):
                inbox.post(.result(.showMessage("restored \(restored) of \(items.count)" + (problems.first.map { "; \(TerminalText.escaped($0))" } ?? ""))))
            case .timedOut, .refused:
                inbox.post(.result(.showMessage("cannot restore: the volume is not responding")))
            }
            inbox.post(.result(.reload(select: nil)))
        })
    }

    static func dataHome() -> String {
        ProcessEnvironment.current.dataHome
    }

}

/// Job numbers shared by thumbnail and file jobs, so the jobs panel can tell them apart.
enum JobIdentifiers {
    private static let counter = Atomic<Int>(0)
    static func next() -> Int { counter.add(1, ordering: .relaxed).newValue }
}
