import BrowserCore
import Dispatch
import FileSystemKit
import Places
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
    /// Where the files are.
    private let place: any Place

    init(inbox: Inbox, scheduler: BackgroundTasks, cache: ThumbnailCache, verifiesCopies: Bool, journal: UndoJournal, place: any Place = LocalPlace()) {
        self.inbox = inbox
        self.scheduler = scheduler
        self.cache = cache
        self.place = place
        self.verifiesCopies = verifiesCopies
        self.journal = journal
    }

    /// Whether this computer's thumbnails follow what is done at `path`: on this computer only
    /// (a remote's thumbnails follow on the remote).
    private func thumbnailsFollow(_ path: String) -> Bool {
        guard let router = place as? PlaceRouter else { return place is LocalPlace }
        return router.isThisComputer(path)
    }

    /// Whether an operation on `paths` is written down for `z`: all of them on places that stamp
    /// their files (this computer, a remote over `qlbrowse serve`), so that the undo can check,
    /// through the place, that each file is as the operation left it.
    private func writesJournal(_ paths: [String]) -> Bool {
        guard let router = place as? PlaceRouter else { return place.stampsFiles }
        return paths.allSatisfy(router.keepsUndo)
    }

    /// What each copy made is now, read where it is (the place's own stamp).
    private static func stamps(of report: FileOperation.Report, in place: any Place) async -> [String: PathStamp] {
        var stamps: [String: PathStamp] = [:]
        for placed in report.placed {
            if let stamp = try? await place.stamp(placed.target) { stamps[placed.target] = stamp }
        }
        return stamps
    }

    /// Starts a copy, move, trash or delete; returns the job's id. `deletesSourcesForGood`: a
    /// move from a place without a trash the user said yes to (its originals deleted for good
    /// once their copies are checked; without it such a move is refused).
    @discardableResult
    func start(_ kind: FileOperation.Kind, sources: [String], destination: String?, volumes: [Volume], deletesSourcesForGood: Bool = false) -> Int {
        let id = JobIdentifiers.next()
        let operation = FileOperation(kind: kind, sources: sources, destination: destination, verifiesContent: verifiesCopies,
                                      deletesSourcesForGood: deletesSourcesForGood)
        let job = Job(operation)
        let inbox = self.inbox, cache = self.cache
        let place = destination ?? sources.first.map { String($0[..<($0.lastIndex(of: "/") ?? $0.startIndex)]) } ?? "/"
        let volume = Volume.containing(place, in: volumes)
        let status = JobStatus(id: id, kind: .file(kind), folder: place)
        let started = ContinuousClock.now, files = self.place, journaled = writesJournal(sources + [destination].compactMap { $0 })
        // Listed (and shown in the jobs panel) at once; run when the volume has a free slot.
        scheduler.submit(group: Self.group, volume: volume?.mountPoint ?? "/", priority: .user, id: id, report: status, attachment: job) { [self] context in
            // A question still open is answered "skip".
            context.onCancel {
                job.operation.cancel()
                job.answered.signal()
            }
            var result = status, running = false
            do throws(FileSystemError) {
                // The checks read the sources here: only when all of them and the destination are here.
                if kind == .copy || kind == .move, let destination, (sources + [destination]).allSatisfy(PlacePath.isLocal) {
                    let capabilities = try await files.capabilities(of: destination, trial: true)
                    if let problem = operation.problem(destinationCapabilities: capabilities) {
                        result.phase = .interrupted(problem)
                        result.detail = "nothing was written"
                        throw .cancelled
                    }
                }
                let lastReport = Mutex(ContinuousClock.now)
                running = true
                let report = try await files.perform(operation, events: FileOperationEvents(resolve: { conflict in
                    inbox.post(.result(.conflictAsked(job: id, conflict)))
                    job.answered.wait()
                    return job.answer.withLock { $0 } ?? (.skip, false)
                }, progress: { progress in
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
                    context.report(update)
                }, moved: { old, new in cache.moveThumbnails(from: old, to: new) },
                   removed: { path in cache.removeThumbnails(for: path) }))
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
                if journaled {
                    let stamps = await Self.stamps(of: report, in: files)
                    self.journal.record(UndoSteps.of(kind, report: report, destination: destination, stamp: { stamps[$0] }))
                }
            } catch where error.code == .notResponding {
                // The place stopped answering: before anything was done, or while it was being done.
                result.phase = .interrupted("\(volume?.label ?? place) is not responding")
                result.detail = running ? error.context ?? "nothing was done" : "nothing was done"
            } catch {
                // The destination refused the operation (said above), or its probe failed.
                if case .interrupted = result.phase {} else {
                    result.phase = .interrupted(error.message)
                    result.detail = "nothing was written"
                }
            }
            result.elapsed = Double(seconds: ContinuousClock.now - started)
            context.report(result)
            inbox.post(.result(.showMessage(JobText.ending(result))))
            inbox.post(.result(.reload(select: nil)))
        }
        return id
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
        let inbox = self.inbox, cache = self.cache, journal = self.journal, place = self.place, journaled = writesJournal([from, to])
        let follows = thumbnailsFollow(from)
        scheduler.submit(group: Self.group, volume: volume, priority: .user) { _ in
            let name = Array(FileOperation.name(to).utf8)
            do throws(FileSystemError) {
                if let stamp = try await place.rename(from, to: to), journaled {
                    journal.record(UndoStep(title: "the rename of \(FileOperation.escapedName(from))", actions: [.rename(from: to, to: from, expected: stamp)]))
                }
                if follows { cache.moveThumbnails(from: from, to: to) }
                inbox.post(.result(.reload(select: name, showsAll: true)))
            } catch where error.code == .notResponding {
                inbox.post(.result(.showMessage("cannot rename: the volume is not responding")))
            } catch where error.errno == EEXIST {
                inbox.post(.result(.showMessage("\(FileOperation.escapedName(to)) exists already; nothing renamed")))
            } catch {
                inbox.post(.result(.showMessage("cannot rename: \(String(cString: strerror(error.errno)))")))
            }
        }
    }

    /// Makes an empty file or a folder; never over an existing name.
    func create(_ path: String, folder: Bool, volume: String) {
        let inbox = self.inbox, journal = self.journal, place = self.place, journaled = writesJournal([path])
        scheduler.submit(group: Self.group, volume: volume, priority: .user) { _ in
            let name = Array(FileOperation.name(path).utf8)
            do throws(FileSystemError) {
                if let stamp = try await place.make(path, folder: folder), journaled {
                    journal.record(UndoStep(title: "the new \(folder ? "folder" : "file") \(FileOperation.escapedName(path))", actions: [.discard(path, expected: stamp)]))
                }
                inbox.post(.result(.reload(select: name, showsAll: true)))
            } catch where error.code == .notResponding {
                inbox.post(.result(.showMessage("cannot create: the volume is not responding")))
            } catch where error.errno == EEXIST {
                inbox.post(.result(.showMessage("\(FileOperation.escapedName(path)) exists already")))
            } catch {
                inbox.post(.result(.showMessage("cannot create \(FileOperation.escapedName(path)): \(String(cString: strerror(error.errno)))")))
            }
        }
    }

    /// Puts trashed items back where they were (beside, as "name (2)", if the place is taken).
    func restore(_ items: [TrashCan.Item], volumes: [Volume]) {
        let inbox = self.inbox, place = self.place
        scheduler.submit(group: Self.group, volume: Volume.containing(items.first?.originalPath ?? "/", in: volumes)?.mountPoint ?? "/",
                         priority: .user) { _ in
            var restored = 0, problems: [String] = []
            for item in items {
                do throws(FileSystemError) {
                    _ = try await place.restore(item)
                    restored += 1
                } catch where error.code == .notResponding {
                    inbox.post(.result(.reload(select: nil, showsAll: true)))
                    inbox.post(.result(.showMessage("cannot restore: the volume is not responding")))
                    return
                } catch {
                    problems.append(error.message)
                }
            }
            // The relisting first: a filter typed once the message shows is the user's, and stays.
            inbox.post(.result(.reload(select: nil, showsAll: true)))
            inbox.post(.result(.showMessage("restored \(restored) of \(items.count)" + (problems.first.map { "; \(TerminalText.escaped($0))" } ?? ""))))
        }
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
