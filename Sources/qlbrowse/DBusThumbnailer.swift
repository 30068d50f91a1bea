import Synchronization
import SystemKit
import ThumbnailKit

/// The freedesktop thumbnailer interface (`org.freedesktop.thumbnails.Thumbnailer1`, tumbler's),
/// so desktop programs that ask tumbler for thumbnails can ask qlbrowse: `Queue` a list of URIs at
/// a flavor (normal 128, large 256, x-large 512, xx-large 1024 pixels), get `Started`, `Ready`
/// for each thumbnail written to the shared cache, `Error` for each failure with tumbler's codes,
/// `Finished`; `Dequeue` cancels. Signals go to the caller that queued the list only, and never
/// before the reply that gave it the handle. Decoding goes to the resident service.
final class DBusThumbnailer: Sendable {
    static let name = "org.freedesktop.thumbnails.Thumbnailer1"
    static let path = "/org/freedesktop/thumbnails/Thumbnailer1"
    static let introspection = """
        <node>
          <interface name="org.freedesktop.thumbnails.Thumbnailer1">
            <method name="Queue">
              <arg type="as" name="uris" direction="in"/>
              <arg type="as" name="mime_types" direction="in"/>
              <arg type="s" name="flavor" direction="in"/>
              <arg type="s" name="scheduler" direction="in"/>
              <arg type="u" name="handle_to_unqueue" direction="in"/>
              <arg type="u" name="handle" direction="out"/>
            </method>
            <method name="Dequeue"><arg type="u" name="handle" direction="in"/></method>
            <method name="GetSupported">
              <arg type="as" name="uri_schemes" direction="out"/>
              <arg type="as" name="mime_types" direction="out"/>
            </method>
            <method name="GetSchedulers"><arg type="as" name="schedulers" direction="out"/></method>
            <method name="GetFlavors"><arg type="as" name="flavors" direction="out"/></method>
            <signal name="Started"><arg type="u" name="handle"/></signal>
            <signal name="Finished"><arg type="u" name="handle"/></signal>
            <signal name="Ready"><arg type="u" name="handle"/><arg type="as" name="uris"/></signal>
            <signal name="Error">
              <arg type="u" name="handle"/><arg type="as" name="failed_uris"/>
              <arg type="i" name="error_code"/><arg type="s" name="message"/>
            </signal>
          </interface>
        </node>
        """

    /// The flavors (cache folders) and their sizes in pixels.
    static let flavors: [(name: String, pixels: Int)] = [("normal", 128), ("large", 256), ("x-large", 512), ("xx-large", 1024)]

    /// tumbler's error codes (tumbler-error.h), which clients compare.
    enum ErrorCode: Int32 {
        case unsupported = 0, connection = 1, invalidFormat = 2, isThumbnail = 3, saveFailed = 4, unsupportedFlavor = 5
        case noContent = 6, shuttingDown = 7, other = 8
    }

    /// A queued list: what it still owes its caller.
    private struct Job {
        let signals: Signals
        let pixels: Int
        /// Files not yet answered (waiting or being made).
        var left: Int
        /// The files being made now, by lane.
        var running: [UInt64: Task<Void, Never>] = [:]
        /// Set by `Dequeue`: nothing more of it starts.
        var dequeued = false
    }

    private struct Jobs {
        var next: UInt32 = 1
        var live: [UInt32: Job] = [:]
        /// Files waiting for a lane, the newest list first (tumbler's LIFO).
        var waiting = NewestFirstQueue<String>()
        var lanes = 0
        var nextRun: UInt64 = 0
        var lastActivity = SystemTime.now()
    }

    /// The types GetSupported lists: asked of the worker beside the start (it takes a worker's
    /// start and its catalogue, ~60–100 ms), so that the name is taken without waiting for them;
    /// a GetSupported that comes first is answered when they are known.
    private enum Supported {
        case waiting([DBusService.Call])
        case known([String])
    }

    let generator: ThumbnailGenerator
    let cache: ThumbnailCache
    private let supported = Mutex(Supported.waiting([]))
    /// Files made at once over all lists: a few more than the service's workers, so that a slow
    /// file holds one lane while the others go on.
    let lanes = 4
    private let jobs = Mutex(Jobs())
    private let service = Mutex<DBusService?>(nil)
    /// Threads for the cache look-ups that answer before any decoding.
    private let io = VolumeIO(maximumOutstanding: 8)

    /// `supportedTypes` is called once, on a thread of its own.
    init(generator: ThumbnailGenerator, cache: ThumbnailCache, supportedTypes: @escaping @Sendable () -> [String]) {
        self.generator = generator
        self.cache = cache
        _ = DetachedThread.start(stackSize: 256 * 1024) { [self] in
            let types = supportedTypes()
            let waiting = self.supported.withLock { state -> [DBusService.Call] in
                defer { state = .known(types) }
                if case .waiting(let calls) = state { return calls }
                return []
            }
            for call in waiting { Self.answerSupported(call, types) }
        }
    }

    private static func answerSupported(_ call: DBusService.Call, _ types: [String]) {
        call.reply(Array(repeating: "file", count: types.count), types)
    }

    func attach(_ service: DBusService) { self.service.withLock { $0 = service } }

    /// Whether `Dequeue` cancelled the job `handle` (or it ended).
    func isDequeued(_ handle: UInt32) -> Bool {
        jobs.withLock { $0.live[handle]?.dequeued ?? true }
    }

    /// Nanoseconds since the last call or the end of the last job; nil while a job runs.
    var idleNanos: Int64? {
        jobs.withLock { $0.live.isEmpty ? SystemTime.now() - $0.lastActivity : nil }
    }

    /// Answers a method call (on the bus's thread: nothing here blocks).
    func handle(_ call: DBusService.Call) {
        jobs.withLock { $0.lastActivity = SystemTime.now() }
        switch call.method {
        case "Queue":
            let unqueue = call.uint(4)
            if unqueue != 0 { dequeue(unqueue) }
            // The handle goes out before the job can send a signal about it.
            let handle = reserveHandle()
            call.reply(handle)
            start(handle, uris: call.strings(0), flavor: call.string(2) ?? "normal", for: call.sender)
        case "Dequeue":
            dequeue(call.uint(0))
            call.reply()
        case "GetSupported":
            let known = supported.withLock { state -> [String]? in
                switch state {
                case .known(let types): return types
                case .waiting(let calls):
                    state = .waiting(calls + [call])
                    return nil
                }
            }
            if let known { Self.answerSupported(call, known) }
        case "GetSchedulers":
            call.reply(["default", "foreground", "background"])
        case "GetFlavors":
            call.reply(Self.flavors.map(\.name))
        default:
            call.fail("qlbrowse has no method \(call.method)")
        }
    }

    /// The next job's handle.
    private func reserveHandle() -> UInt32 {
        jobs.withLock { state in
            let handle = state.next
            state.next = state.next == UInt32.max ? 1 : state.next + 1
            return handle
        }
    }

    /// Starts the job `handle` for `uris`; its signals go to `caller`. Files already in the cache
    /// are announced first, all at once. The files that are not photos then wait for a lane,
    /// newest list first, while the photos whose own preview is the thumbnail are answered; the
    /// other photos join the lanes after them.
    private func start(_ handle: UInt32, uris: [String], flavor: String, for caller: String?) {
        let signals = Signals(bus: service.withLock { $0 }, caller: caller, handle: handle)
        signals.started()
        guard let pixels = Self.flavors.first(where: { $0.name == flavor })?.pixels else {
            signals.failed(uris, .unsupportedFlavor, "Unsupported thumbnail flavor requested: \(flavor)")
            signals.finished()
            return
        }
        jobs.withLock { $0.live[handle] = Job(signals: signals, pixels: pixels, left: uris.count) }
        Task {
            let cache = self.cache, box = PixelSize(width: pixels, height: pixels)
            let cached = (try? await io.call { _ in Set(uris.filter { uri in
                FileURI.path(from: uri).map { cache.hasValidThumbnail(forFile: $0, box: box, sharedToo: false) } ?? false
            }) }) ?? []
            if !cached.isEmpty { signals.ready(uris.filter(cached.contains)) }
            done(handle, count: cached.count)
            let fresh = uris.filter { !cached.contains($0) }
            // The workers start on the rest (the second one starts when requests come together)
            // while this process reads the photos' own previews: waiting for those first started
            // the second worker 40 ms later, on a screen of 0.35 s.
            var photos: [String] = [], others: [String] = []
            for uri in fresh {
                if Self.mayHoldItsThumbnail(uri) { photos.append(uri) } else { others.append(uri) }
            }
            self.waitForLanes(handle, others)
            let embedded = await self.answerEmbedded(photos, handle: handle, pixels: pixels, signals: signals)
            done(handle, count: embedded.count)
            self.waitForLanes(handle, photos.filter { !embedded.contains($0) })
        }
    }

    /// Puts `uris` of the job `handle` in line for the lanes, starting lanes while fewer than
    /// `lanes` run; a job dequeued meanwhile counts them as answered, unmade.
    private func waitForLanes(_ handle: UInt32, _ uris: [String]) {
        guard !uris.isEmpty else { return }
        let lanes = jobs.withLock { state -> Int? in
            guard state.live[handle]?.dequeued == false else { return nil }
            state.waiting.push(handle, uris)
            let added = min(self.lanes - state.lanes, uris.count)
            state.lanes += added
            return added
        }
        guard let lanes else { return done(handle, count: uris.count) }
        for _ in 0..<lanes { Task { await self.lane() } }
    }

    /// Makes waiting files one after another, the newest list's first, until none waits.
    private func lane() async {
        while true {
            let next = jobs.withLock { state -> (UInt32, UInt64, Int, Signals, String)? in
                while let (handle, uri) = state.waiting.next() {
                    guard let job = state.live[handle] else { continue }
                    state.nextRun += 1
                    return (handle, state.nextRun, job.pixels, job.signals, uri)
                }
                state.lanes -= 1
                return nil
            }
            guard let (handle, run, pixels, signals, uri) = next else { return }
            let task = Task { await self.thumbnail(uri, pixels: pixels, signals: signals) }
            jobs.withLock { $0.live[handle]?.running[run] = task }
            await task.value
            jobs.withLock { _ = $0.live[handle]?.running.removeValue(forKey: run) }
            done(handle, count: 1)
        }
    }

    /// Counts `count` files of the job `handle` answered; the last one ends it with `Finished`.
    private func done(_ handle: UInt32, count: Int) {
        let ended = jobs.withLock { state -> Job? in
            guard var job = state.live[handle] else { return nil }
            job.left -= count
            guard job.left <= 0 else {
                state.live[handle] = job
                return nil
            }
            state.live[handle] = nil
            state.lastActivity = SystemTime.now()
            return job
        }
        ended?.signals.finished()
    }

    /// Cancels a job: its waiting files are dropped, those being made are stopped; it still ends with `Finished`.
    func dequeue(_ handle: UInt32) {
        let (dropped, running) = jobs.withLock { state in
            state.live[handle]?.dequeued = true
            return (state.waiting.takeOut(handle).count, state.live[handle].map { Array($0.running.values) } ?? [])
        }
        running.forEach { $0.cancel() }
        if dropped > 0 { done(handle, count: dropped) }
    }

    private func thumbnail(_ uri: String, pixels: Int, signals: Signals) async {
        let request: ThumbnailRequest
        switch Self.request(for: uri, pixels: pixels, cacheRoot: cache.root) {
        case .success(let checked): request = checked
        case .failure(let refusal):
            signals.failed([uri], refusal.code, refusal.message)
            return
        }
        let path = request.path
        do {
            let made = try await generator.bestRepresentation(for: request)
            // Ready means "the file is in the cache": one that could not be written is tumbler's "could not save".
            if let notStored = made.notStored {
                signals.failed([uri], .saveFailed, "\(path): \(notStored.reason)")
                return
            }
            signals.ready([uri])
        } catch {
            let failure = error as? ThumbnailError ?? ThumbnailError(.cancelled, "cancelled")
            guard failure.code != .cancelled else { return }
            signals.failed([uri], Self.code(for: failure), "\(path): \(failure.reason)")
        }
    }
}
