import BrowserCore
import FileSystemKit
import Places
import SystemKit
import ThumbnailKit

/// Runs the browser's background jobs: `T` thumbnails a folder through its place
/// (`thumbnailFolders`: the walk and the decoding run where the files are) while browsing goes
/// on. Jobs have their own worker (the browser's pictures keep theirs), report
/// progress to the UI about ten times a second, and stop promptly when cancelled or when their
/// volume goes away, saying what was done and what was not.
final class JobRunner: Sendable {
    private let place: any Place
    /// The jobs' own workers (the local place's batch workers), shut down with the runner.
    private let workers: any WorkerBackend
    private let inbox: Inbox
    private let scheduler: BackgroundTasks
    /// The scheduler's group of these jobs.
    static let group = "thumbnails"

    /// `workers`: the jobs' own (one worker: a batch runs beside the browser's workers, not in
    /// their queue), which the local place's batches use and which go when the runner shuts down.
    init(inbox: Inbox, scheduler: BackgroundTasks, place: any Place, workers: any WorkerBackend) {
        self.place = place
        self.inbox = inbox
        self.scheduler = scheduler
        self.workers = workers
    }

    /// Starts thumbnailing `folder` (recursively) on the volume mounted at `volume`; returns the
    /// job's id. Its progress goes to the jobs panel through the scheduler's reports.
    @discardableResult
    func start(folder: String, shared: Bool, volume: String) -> Int {
        let id = JobIdentifiers.next()
        let inbox = self.inbox, place = self.place
        let first = JobStatus(id: id, folder: folder, writesShared: shared)
        scheduler.submit(group: Self.group, volume: volume, priority: .background, id: id, report: first) { context in
            let events = place.thumbnailFolders([folder], options: BatchOptions(box: PixelSize(width: 256, height: 256), jobs: 1, writesShared: shared))
            var status = first
            /// Why the job stopped itself (its volume went away), when it did.
            var gone: String?
            let start = ContinuousClock.now
            var lastReport = start
            for await event in events {
                if context.isCancelled || gone != nil { break }
                switch event {
                case .found(let total):
                    status.total = total
                    status.phase = .running
                    // Nothing found may mean the folder cannot be read (a share still coming back).
                    if total == 0, let (reason, _) = await Self.goneReason(folder, place: place) { gone = reason }
                // A vanished volume shows in the files' read errors, below; folders that could
                // not be listed for another reason (no permission, a path too long) are counted.
                case .unlisted(let folders): status.foldersNotListed = folders.count
                case .file(_, .generated): status.generated += 1
                case .file(_, .alreadyCached): status.alreadyCached += 1
                case .file(_, .failed(let error)) where error.code == .cancelled: break
                case .file(_, .failed(let error)) where error.code == .unreadable:
                    // A read error may mean the volume went away: then the job stops rather than
                    // failing every remaining file.
                    if let (reason, mountPoint) = await Self.goneReason(folder, place: place) {
                        gone = reason
                        // The browser may be showing that volume: it should leave it too.
                        inbox.post(.result(.volumeLost(mountPoint: mountPoint)))
                        break
                    }
                    status.failed += 1
                case .file(_, .failed): status.failed += 1
                case .file(_, .skipped): status.skipped += 1
                }
                let now = ContinuousClock.now
                if now - lastReport > .milliseconds(100) {
                    lastReport = now
                    status.elapsed = Double(seconds: now - start)
                    context.report(status)
                }
            }
            status.elapsed = Double(seconds: ContinuousClock.now - start)
            if let reason = context.cancelReason ?? gone {
                status.phase = reason == "cancelled" ? .cancelled : .interrupted(reason)
            } else {
                status.phase = Task.isCancelled ? .cancelled : .finished
            }
            context.report(status)
            inbox.post(.result(.showMessage(JobText.ending(status))))
        }
        return id
    }

    /// Stops a job; `reason` is "cancelled" for the user's wish, or what happened ("photos was disconnected").
    func stop(_ id: Int, reason: String = "cancelled") {
        scheduler.cancel(id, reason: reason, group: Self.group)
    }

    func shutdown() async {
        scheduler.cancel(group: Self.group)
        await workers.shutdown(waitSeconds: 2)
    }

    /// Why the job's folder cannot be reached any more ("photos was disconnected"), or nil when it can.
    private static func goneReason(_ folder: String, place: any Place) async -> (String, String)? {
        let volume = Volume.containing(folder, in: VolumeMonitor.currentVolumes())
        let label = volume?.label ?? folder, mountPoint = volume?.mountPoint ?? "/"
        switch await place.probe(folder) {
        case nil: return nil
        case let failure? where failure.code == .notResponding: return ("\(label) is not responding", mountPoint)
        case .some: return ("\(label) was disconnected", mountPoint)
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension Double {
    /// A duration in seconds, for rates and times left.
    init(seconds duration: Duration) {
        self = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
