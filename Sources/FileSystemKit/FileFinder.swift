import Dispatch
import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Finds names below a folder as the user types (`F`, `qlbrowse find`): one thread walks the tree
/// once and keeps every path, packed; another ranks them against the query, again for each new
/// query (a query that only grows looks only at the last matches) and for each batch the walk
/// adds, and reports the best. The walk stays on the folder's volume: other volumes' mount points
/// (from the mount table) are never entered or even looked at, so a hung share below cannot stop
/// it. Everything stops on `stop()`.
public final class FileFinder: Sendable {
    /// What the finder has found so far for the current query.
    public struct Report: Sendable, Equatable, Codable {
        public let query: String
        /// The best matches, best first, as paths relative to the root.
        public let best: [String]
        /// How many paths match.
        public let matched: Int
        /// How many paths were walked so far.
        public let walked: Int
        /// The walk is over.
        public let complete: Bool
        /// Folders that could not be read (permission, gone).
        public let unreadable: Int
        /// With `streams`: the matches this report adds, in the order the walk found them.
        public let fresh: [String]

        public init(query: String, best: [String], matched: Int, walked: Int, complete: Bool, unreadable: Int, fresh: [String] = []) {
            self.query = query
            self.best = best
            self.matched = matched
            self.walked = walked
            self.complete = complete
            self.unreadable = unreadable
            self.fresh = fresh
        }
    }

    /// A path's place: which chunk, which entry in it.
    /// A matching path's place (which chunk, which entry in it) and its cost for the query ranked.
    private struct PathReference: Sendable { let chunk: Int32, index: Int32, cost: Int32 }

    private struct State {
        var chunks: [PathChunk] = []
        var walked = 0
        var complete = false
        var unreadable = 0
        var stopped = false
        var query = ""
        var generation = 0
        /// The query ranked last, its matches, and how many chunks it has looked at.
        var rankedQuery: String?
        var matches: [PathReference] = []
        var rankedChunks = 0
    }

    public let root: String
    private let showsHidden: Bool
    private let skipped: Set<String>
    private let limit: Int
    private let streams: Bool
    private let report: @Sendable (Report) -> Void
    private let state = Mutex<State>(State())
    private let ranking = DispatchQueue(label: "qlbrowse.find", qos: .userInitiated)

    /// `skipping`: mount points of other volumes, never entered. The `best` matches are reported;
    /// with `streams`, every new match too (`Report.fresh`), for a command line that prints as it finds.
    public init(root: String, showsHidden: Bool, skipping mountPoints: [String], best limit: Int = 200, streams: Bool = false,
                report: @escaping @Sendable (Report) -> Void) {
        self.root = root
        self.showsHidden = showsHidden
        self.skipped = Set(mountPoints.filter { $0 != root && $0 != "/" })
        self.limit = limit
        self.streams = streams
        self.report = report
    }

    /// Starts the walk; reports come for the query given to `search` (empty at first: every path).
    public func start() {
        DetachedThread.start(stackSize: 512 * 1024) { [self] in walk() }
    }

    /// Ranks the paths against `query`, now and as the walk goes on.
    public func search(_ query: String) {
        let generation = state.withLock { state -> Int in
            state.query = query
            state.generation += 1
            return state.generation
        }
        ranking.async { [self] in rank(generation: generation) }
    }

    public func stop() { state.withLock { $0.stopped = true } }

    /// For a place whose folders are not this computer's (SFTP, read over the link) and so are
    /// walked by the place instead of `start()`: the names in each folder read (its path relative
    /// to the root, as bytes; empty: the root), and how many folders could not be read, ranked as
    /// the walk's own paths are; `complete` with the last. The caller leaves out what the walk
    /// leaves out (".", "..", hidden names unless `showsHidden`).
    public func add(_ folders: [(folder: [UInt8], names: [[UInt8]])], unreadable: Int = 0, complete: Bool) {
        guard !state.withLock({ $0.stopped }) else { return }
        var chunk = PathChunk()
        for (folder, names) in folders {
            for name in names {
                (name + [0]).withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chunk.append(folder: folder, name: $0.baseAddress!, length: name.count) }
                }
            }
        }
        if unreadable > 0 { state.withLock { $0.unreadable += unreadable } }
        hand(&chunk, complete: complete)
    }

    private func walk() {
        // Folders still to read: their absolute path, and their path relative to the root as bytes.
        var pending: [(path: String, relative: [UInt8])] = [(root, [])]
        var chunk = PathChunk()
        var lastHanded = SystemTime.now()
        while let (folder, relative) = pending.popLast() {
            if state.withLock({ $0.stopped }) { return }
            guard let directory = opendir(folder) else {
                state.withLock { $0.unreadable += 1 }
                continue
            }
            let prefix = folder == "/" ? "" : folder
            while let entry = readdir(directory) {
                withUnsafePointer(to: &entry.pointee.d_name) { raw in
                    raw.withMemoryRebound(to: CChar.self, capacity: 256) { name in
                        // ".", "..", and hidden names unless asked for.
                        if name[0] == 0x2E && (!showsHidden || name[1] == 0 || (name[1] == 0x2E && name[2] == 0)) { return }
                        let length = strlen(name)
                        let type = Int32(entry.pointee.d_type)
                        if type == Int32(DT_DIR) || type == Int32(DT_UNKNOWN) {
                            let path = prefix + "/" + String(fileSystemRepresentation: name)
                            let isSkipped = skipped.contains(path)
                            var isFolder = type == Int32(DT_DIR)
                            if type == Int32(DT_UNKNOWN), !isSkipped {
                                var status = stat()
                                isFolder = lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
                            }
                            if isFolder && !isSkipped {
                                pending.append((path, relative + (relative.isEmpty ? [] : [UInt8(ascii: "/")]) + UnsafeRawBufferPointer(start: name, count: length)))
                            }
                        }
                        chunk.append(folder: relative, name: name, length: length)
                    }
                }
            }
            closedir(directory)
            // Paths are handed over a few thousand at a time, or every 30 ms, whichever comes first.
            if chunk.count >= 8192 || (!chunk.isEmpty && SystemTime.now() - lastHanded > 30_000_000) {
                hand(&chunk, complete: false)
                lastHanded = SystemTime.now()
            }
        }
        hand(&chunk, complete: true)
    }

    private func hand(_ chunk: inout PathChunk, complete: Bool) {
        let handed = chunk
        chunk = PathChunk()
        let generation = state.withLock { state -> Int in
            if !handed.isEmpty { state.chunks.append(handed) }
            state.walked += handed.count
            state.complete = complete
            return state.generation
        }
        ranking.async { [self] in rank(generation: generation) }
    }

    /// Ranks what is new for the current query (all of it when the query changed, only the last
    /// matches when it grew), then reports the best. Work for an older query is skipped.
    private func rank(generation: Int) {
        guard let snapshot = state.withLock({ state -> State? in state.generation == generation && !state.stopped ? state : nil }) else { return }
        let query = snapshot.query, chunks = snapshot.chunks, matcher = FuzzyMatch(query)
        var matches: [PathReference]
        var firstNewChunk = snapshot.rankedChunks
        if snapshot.rankedQuery == query {
            matches = snapshot.matches
        } else if let previous = snapshot.rankedQuery, !previous.isEmpty, query.hasPrefix(previous) {
            matches = snapshot.matches.compactMap { reference in
                chunks[Int(reference.chunk)].withPath(Int(reference.index)) { matcher.cost($0) }.map { PathReference(chunk: reference.chunk, index: reference.index, cost: Int32(clamping: $0)) }
            }
        } else {
            matches = []
            firstNewChunk = 0
        }
        let known = matches.count
        for chunkIndex in firstNewChunk..<chunks.count {
            let chunk = chunks[chunkIndex]
            for index in 0..<chunk.count {
                if let cost = chunk.withPath(index, { matcher.cost($0) }) { matches.append(PathReference(chunk: Int32(chunkIndex), index: Int32(index), cost: Int32(clamping: cost))) }
            }
        }
        let best = bestOf(matches, in: chunks)
        let current = state.withLock { state -> Bool in
            guard state.generation == generation else { return false }
            (state.rankedQuery, state.matches, state.rankedChunks) = (query, matches, chunks.count)
            return true
        }
        guard current else { return }
        // New to this query: what the new chunks added, or everything when the query is new.
        let fresh = streams ? matches[(snapshot.rankedQuery == query ? known : 0)...].map { chunks[Int($0.chunk)].path(Int($0.index)) } : []
        report(Report(query: query, best: best, matched: matches.count, walked: snapshot.walked, complete: snapshot.complete,
                      unreadable: snapshot.unreadable, fresh: fresh))
    }

    /// The `limit` best matches, best first (ties: the order the walk found them).
    private func bestOf(_ matches: [PathReference], in chunks: [PathChunk]) -> [String] {
        var scored: [(cost: Int, order: Int, reference: PathReference)] = []
        scored.reserveCapacity(min(matches.count, limit * 2))
        var worst = Int.max
        for (order, reference) in matches.enumerated() {
            let cost = Int(reference.cost)
            guard scored.count < limit || cost < worst else { continue }
            scored.append((cost, order, reference))
            // Kept small: past twice the limit, the worse half goes.
            if scored.count >= limit * 2 {
                scored.sort { ($0.cost, $0.order) < ($1.cost, $1.order) }
                scored.removeLast(scored.count - limit)
                worst = scored.last!.cost
            }
        }
        scored.sort { ($0.cost, $0.order) < ($1.cost, $1.order) }
        return scored.prefix(limit).map { chunks[Int($0.reference.chunk)].path(Int($0.reference.index)) }
    }
}
