import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Lists a folder off the UI thread, in batches, so the first screen of a huge folder paints
/// before the listing ends. Each listing can be cancelled; a cancelled one reports nothing more.
/// Listings run through `VolumeIO`, on a thread of their own per call: a listing stuck on a dead
/// share is abandoned, never waited for, and other volumes list as usual.
public final class DirectoryLister: Sendable {
    /// Why a listing failed: `meansVolumeGone` tells a vanished volume (`VolumeGone`) from a
    /// folder that cannot be read; `.notResponding` when the volume refused new work.
    public typealias Failure = FileSystemError

    /// A running listing.
    public final class Listing: Sendable {
        fileprivate let cancelled = Atomic<Bool>(false)
        public func cancel() { cancelled.store(true, ordering: .relaxed) }
        public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    }

    private let io: VolumeIO
    /// Items in the second batch (the first is small so the screen fills at once; later ones double).
    private let batchSize: Int
    /// Seconds without progress after which a listing counts as stuck (its volume "not responding").
    private let stallDeadline: Double

    public init(io: VolumeIO = .shared, batchSize: Int = 25_000, stallDeadline: Double = 10) {
        self.io = io
        self.batchSize = batchSize
        self.stallDeadline = stallDeadline
    }

    /// Lists `folder` on `volume` (its mount point); `deliver` gets packed batches, the last with
    /// `complete: true`, or a failure. Entries named in `mountPoints` (other volumes mounted in this
    /// folder) are shown as folders without a stat: a stat would ask that volume, and a hung
    /// share must not hang the listing of the folder it is mounted in.
    @discardableResult
    public func list(_ folder: String, volume: String, mountPoints: Set<[UInt8]> = [], deliver: @escaping @Sendable (_ batch: EntryStore, _ complete: Bool, _ failure: Failure?) -> Void) -> Listing {
        let listing = Listing()
        let batchSize = self.batchSize
        let clock = io.clock
        io.run(volume: volume, deadline: stallDeadline, { heartbeat in
            guard let directory = opendir(folder) else {
                let code = errno
                if !listing.isCancelled { deliver(EntryStore(), true, .system(code, "cannot open \(TerminalTextShim.escape(folder))", path: folder, call: "opendir")) }
                return
            }
            defer { closedir(directory) }
            let fd = dirfd(directory)
            var limit = 200
            var batch = EntryBatch(expectedEntries: limit)
            var kinds = KindGuesser()
            var lastDelivery = clock.now()
            // Once stats take more than 2 ms again and again (4 of the last 16, or 25 ms spent in
            // such among them: a network share, a spinning disk), the rest are read many at once,
            // in chunks of 64 names: each stat there is a round trip. One slow stat is not enough:
            // on a busy machine it was a thread losing the processor, and a local folder of
            // 100,000 went through 8 threads.
            var slowStats = SlowCallDetector()
            var lanes: [DispatchQueue] = []
            var waiting: [[UInt8]] = []
            func append(_ name: UnsafeBufferPointer<UInt8>, _ entry: EntryAttributes) {
                batch.append(name: name, isDirectory: entry.isDirectory, isSymbolicLink: entry.isSymbolicLink, size: entry.size,
                             modified: entry.modified, kind: kinds.kind(of: name, isDirectory: entry.isDirectory))
            }
            func readWaiting() {
                for (name, entry) in zip(waiting, EntryAttributes.read(waiting, in: fd, lanes: lanes)) {
                    name.withUnsafeBufferPointer { append(UnsafeBufferPointer(rebasing: $0.dropLast()), entry) }
                }
                waiting.removeAll(keepingCapacity: true)
                heartbeat.beat()
            }
            while true {
                if listing.isCancelled { return }
                errno = 0
                guard let entry = readdir(directory) else {
                    let code = errno
                    if !waiting.isEmpty { readWaiting() }
                    if listing.isCancelled { return }
                    deliver(EntryStore(batch), true, code == 0 ? nil : .system(code, "reading \(TerminalTextShim.escape(folder)) failed", path: folder, call: "readdir"))
                    return
                }
                withUnsafePointer(to: entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: CChar.self, capacity: 256) { cName in
                        let name = UnsafeBufferPointer(start: UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self), count: strlen(cName))
                        if name.count == 1 && name[0] == 46 || name.count == 2 && name[0] == 46 && name[1] == 46 { return }
                        if !mountPoints.isEmpty && mountPoints.contains(Array(name)) {
                            batch.append(name: name, isDirectory: true, isSymbolicLink: false, size: 0, modified: 0, kind: .folder)
                            return
                        }
                        if !lanes.isEmpty {
                            waiting.append(Array(name) + [0])
                            return
                        }
                        let started = clock.now()
                        append(name, EntryAttributes.read(cName, in: fd))
                        if slowStats.record(clock.now() - started) { lanes = (0..<8).map { DispatchQueue(label: "qlbrowse.list.stat.\($0)") } }
                    }
                }
                let chunkRead = waiting.count >= 64
                if chunkRead { readWaiting() }
                if batch.count & 63 == 0 { heartbeat.beat() }
                // A slow volume's entries show as they come: a batch goes out when full, or after
                // 200 ms of slow arrivals.
                let slow = (batch.count & 15 == 0 || chunkRead) && clock.now() - lastDelivery > 200_000_000
                if batch.count >= limit || slow {
                    lastDelivery = clock.now()
                    deliver(EntryStore(batch), false, nil)
                    // Batches grow (200, then 25,000, 50,000, …) so that even huge folders make few chunks.
                    limit = limit == 200 ? batchSize : min(limit * 2, EntryStore.chunkCapacity)
                    batch = EntryBatch(expectedEntries: limit)
                }
            }
        }, completion: { outcome in
            // A stuck listing says nothing more: the UI shows it is waiting and lets the user leave.
            if case .refused = outcome, !listing.isCancelled {
                deliver(EntryStore(), true, .notResponding(TerminalTextShim.escape(volume)))
            }
        })
        return listing
    }
}

/// Escapes a path for a message (the UI escapes again; this keeps raw bytes out of any log).
enum TerminalTextShim {
    static func escape(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }
}
