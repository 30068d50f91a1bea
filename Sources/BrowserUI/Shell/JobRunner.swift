import BrowserCore
import FileSystemKit
import Places
import Synchronization
import SystemKit
import ThumbnailKit

/// Runs the browser's background jobs: `T` thumbnails a folder through `ThumbnailBatch` while
/// browsing goes on. Jobs have their own worker (the browser's pictures keep theirs), report
/// progress to the UI about ten times a second, and stop promptly when cancelled or when their
/// volume goes away, saying what was done and what was not.
final class JobRunner: Sendable {
    private let pool: WorkerPool
    private let inbox: Inbox
    /// Why a job was stopped, set before its task is cancelled.
    private final class StopReason: Sendable {
        let text = Mutex<String?>(nil)
    }

    private let running = Mutex<[Int: (task: Task<Void, Never>, stopReason: StopReason)]>([:])

    init(inbox: Inbox, logFile: String?) {
        self.inbox = inbox
        // One worker: the batch runs beside the browser's own workers, not in their queue.
        self.pool = WorkerPool(size: 1, stderrPath: logFile)
    }

    /// Starts thumbnailing `folder` (recursively); returns the job's id.
    @discardableResult
    func start(folder: String, shared: Bool) -> Int {
        let id = JobIdentifiers.next()
        let stopReason = StopReason()
        let inbox = self.inbox, pool = self.pool
        let task = Task.detached(priority: .utility) { [weak self] in
            let cache = ThumbnailCache(writesShared: shared)
            let generator = ThumbnailGenerator(pool: pool, cache: cache)
            let batch = ThumbnailBatch(generator: generator, cache: cache, box: PixelSize(width: 256, height: 256), jobs: 1)
            var status = JobStatus(id: id, folder: folder, writesShared: shared)
            let start = ContinuousClock.now
            var lastReport = start
            inbox.post(.result(.jobChanged(status)))
            for await event in batch.run([folder]) {
                if stopReason.text.withLock({ $0 }) != nil { break }
                switch event {
                case .found(let total):
                    status.total = total
                    status.phase = .running
                    // Nothing found may mean the folder cannot be read (a share still coming back).
                    if total == 0, let (gone, _) = await Self.goneReason(folder) {
                        stopReason.text.withLock { $0 = $0 ?? gone }
                    }
                // A vanished volume shows in the files' read errors, below; folders that could
                // not be listed for another reason (no permission, a path too long) are counted.
                case .unlisted(let folders): status.foldersNotListed = folders.count
                case .file(_, .generated): status.generated += 1
                case .file(_, .alreadyCached): status.alreadyCached += 1
                case .file(_, .failed(let error)) where error.code == .cancelled: break
                case .file(_, .failed(let error)) where error.code == .unreadable:
                    // A read error may mean the volume went away: then the job stops rather than
                    // failing every remaining file.
                    if let (gone, mountPoint) = await Self.goneReason(folder) {
                        stopReason.text.withLock { $0 = $0 ?? gone }
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
                    inbox.post(.result(.jobChanged(status)))
                }
            }
            status.elapsed = Double(seconds: ContinuousClock.now - start)
            if let reason = stopReason.text.withLock({ $0 }) {
                status.phase = reason == "cancelled" ? .cancelled : .interrupted(reason)
            } else {
                status.phase = Task.isCancelled ? .cancelled : .finished
            }
            inbox.post(.result(.jobChanged(status)))
            inbox.post(.result(.showMessage(JobText.ending(status))))
            _ = self?.running.withLock { $0.removeValue(forKey: id) }
        }
        running.withLock { $0[id] = (task, stopReason) }
        return id
    }

    /// Stops a job; `reason` is "cancelled" for the user's wish, or what happened ("photos was disconnected").
    func stop(_ id: Int, reason: String = "cancelled") {
        guard let job = running.withLock({ $0.removeValue(forKey: id) }) else { return }
        job.stopReason.text.withLock { $0 = $0 ?? reason }
        job.task.cancel()
    }

    func shutdown() async {
        for id in running.withLock({ Array($0.keys) }) { stop(id) }
        await pool.shutdown()
    }

    /// Why the job's folder cannot be reached any more ("photos was disconnected"), or nil when it can.
    private static func goneReason(_ folder: String) async -> (String, String)? {
        let volume = Volume.containing(folder, in: VolumeMonitor.currentVolumes())
        let label = volume?.label ?? folder, mountPoint = volume?.mountPoint ?? "/"
        switch await LocalPlace().probe(folder) {
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
