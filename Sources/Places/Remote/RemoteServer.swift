import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The remote side of a `RemotePlace`: `qlbrowse serve --stdio` reads `RemoteRequest` frames from
/// one descriptor and writes `RemoteAnswer` frames to another, serving a `LocalPlace` (listings,
/// reads, writes, file operations, thumbnails made and cached here, where the files are). Every
/// request runs at once on a task of its own, so many are in flight; `cancel` stops one; the end
/// of the input (the link gone) cancels them all.
package final class RemoteServer: Sendable {
    let place: LocalPlace
    /// The workers Quick Look's previews are made by (`.preview`); nil: previews are refused.
    let previews: (any WorkerBackend)?
    /// The freedesktop cache here, whose thumbnails follow files moved or removed by an operation.
    let cache: ThumbnailCache?
    private let input: Int32
    /// The answers' descriptor, held while a frame is written (frames never interleave).
    private let output: Mutex<Int32>
    /// What runs for each request id, to cancel.
    private let running = Mutex<[UInt64: @Sendable () -> Void]>([:])
    /// The running file operations by request id, for `.choose` and `.pause`.
    let operations = Mutex<[UInt64: RemoteOperationControl]>([:])
    /// The running searches by request id, for `.findQuery`.
    let finders = Mutex<[UInt64: PlaceFind]>([:])
    private let software: String
    /// Thumbnails made in the order asked, a few more at once than the workers.
    private let turns = RemoteThumbnailTurns(width: min(WorkerPool.coreCount, 4) + 2)
    /// The protocol version this side speaks (`RemoteCodec.version`).
    private let version: Int

    /// Serves `place`, reading requests from `input` and answering on `output`; `previews`
    /// makes Quick Look's previews, `cache` follows files moved or removed.
    package init(place: LocalPlace, previews: (any WorkerBackend)? = nil, cache: ThumbnailCache? = nil, input: Int32, output: Int32,
                 software: String, version: Int = RemoteCodec.version) {
        self.place = place
        self.previews = previews
        self.cache = cache
        self.version = version
        self.input = input
        self.output = Mutex(output)
        self.software = software
    }

    /// How a session ended.
    package enum End: Sendable, Equatable {
        /// The other side closed the link.
        case closed
        /// The other side speaks another protocol version (named in the hello answered).
        case otherVersion(Int)
        /// The first frame was not a hello, or a frame could not be read.
        case broken(String)
    }

    /// Answers the hello, then serves until the input ends. Blocking: run it on a thread of its own.
    package func run() -> End {
        let first: WorkerFrame?
        do { first = try FrameCodec.read(from: input) } catch { return .broken("cannot read the first frame: \(error)") }
        guard let first else { return .closed }
        guard let hello = RemoteCodec.hello(in: first) else { return .broken("the first frame is not a hello") }
        RemoteTrace.note("remote", "hears the hello")
        // Our hello goes back whatever the other side speaks, so that it can name the mismatch.
        send(.hello(version: version, software: software), id: first.id)
        guard hello.version == version else { return .otherVersion(hello.version) }
        while true {
            let frame: WorkerFrame?
            do { frame = try FrameCodec.read(from: input) } catch { frame = nil }
            guard let frame else { break }
            do throws(WorkerCodecError) {
                let request = try RemoteCodec.request(in: frame)
                if case .cancel = request {
                    let cancel = running.withLock { $0.removeValue(forKey: frame.id) }
                    cancel?()
                } else if case .choose(let choice, let applyToAll) = request {
                    operations.withLock { $0[frame.id] }?.answer(choice, applyToAll: applyToAll)
                } else if case .findQuery(let query) = request {
                    finders.withLock { $0[frame.id] }?.search(query)
                } else if case .pause(let paused) = request {
                    operations.withLock { $0[frame.id] }?.operation.setPaused(paused)
                } else {
                    start(request, id: frame.id, payload: frame.payload)
                }
            } catch {
                send(.failure(RemoteFailure(FileSystemError(code: .unsupported, context: "the remote qlbrowse cannot read this request: \(error)"))), id: frame.id)
            }
        }
        let all = running.withLock { running in
            defer { running.removeAll() }
            return Array(running.values)
        }
        for cancel in all { cancel() }
        // A file operation cancelled removes its temporary: the process waits for that (a
        // while), or the link's end would leave half a copy behind.
        for _ in 0..<200 where !operations.withLock({ $0.isEmpty }) { usleep(50_000) }
        return .closed
    }

    /// Writes one answer; a link gone is noticed by the reader.
    func send(_ answer: RemoteAnswer, id: UInt64, payload: [UInt8] = []) {
        let frame = RemoteCodec.frame(answer, id: id, payload: payload)
        if RemoteTrace.isOn { RemoteTrace.note("remote", "answers \(id) \(RemoteTrace.describe(answer)) \(frame.head.count + frame.payload.count) bytes") }
        output.withLock { fd in _ = try? FrameCodec.write(frame, to: fd) }
    }

    func start(_ request: RemoteRequest, id: UInt64, payload: [UInt8]) {
        // Registered before the work starts, so that a quick answer or a cancel finds it.
        let handle = Handle()
        if RemoteTrace.isOn { RemoteTrace.note("remote", "starts \(id) \(RemoteTrace.describe(request))") }
        running.withLock { $0[id] = handle.cancel }
        switch request {
        case .list(let path):
            // Batches a few milliseconds apart cross together (RemoteListingBatches).
            let batches = RemoteListingBatches { [self] batch, complete in
                if complete { finish(id) }
                send(.entries(complete: complete), id: id, payload: RemoteListing.pack(batch))
            }
            let task = place.list(path) { [self] batch, complete, failure in
                if let failure {
                    batches.end()
                    finish(id)
                    send(.failure(RemoteFailure(failure)), id: id)
                } else if complete || !batch.isEmpty {
                    batches.add(batch, complete: complete)
                }
            }
            handle.set { task.cancel() }
        case .thumbnail(let asked):
            let item = PlaceItem(path: asked.path, isDirectory: false, size: asked.size, modified: asked.modified)
            var options = ThumbnailOptions(size: asked.box, scale: asked.scale, types: Set(asked.types), concurrency: 1)
            options.checksVersion = asked.checksVersion
            // In the order asked, a few at a time (RemoteThumbnailTurns): a screen's before the rows ahead.
            turns.enter { [self, options] in
                let progress = place.fetchThumbnails(for: [item], options: options, perItem: { [self] _, result in
                    finish(id)
                    switch result {
                    case .success(let picture):
                        let (payload, jpeg) = RemotePreviewPicture.packThumbnail(picture)
                        send(.thumbnail(.init(type: picture.type, source: picture.source, contentType: picture.contentType, facts: picture.facts,
                                              jpeg: jpeg)), id: id, payload: payload)
                    case .failure(let error):
                        send(.failure(RemoteFailure(error)), id: id)
                    }
                }, completion: { [turns] _ in turns.leave() })
                handle.set { progress.cancel() }
            }
        case .preview(let asked):
            handle.set(preview(asked, id: id))
        case .perform(let asked):
            handle.set(perform(asked, id: id))
        case .batch(let asked):
            handle.set(batch(asked, id: id))
        case .watch(let path):
            handle.set(watch(path, id: id))
        case .find(let asked):
            handle.set(find(asked, id: id))
        case .findInside(let asked):
            handle.set(findInside(asked, id: id))
        default:
            let calls = RemoteCalls(place: place, cache: cache)
            let task = Task { [self] in
                let answer: (RemoteAnswer, [UInt8])
                do throws(FileSystemError) {
                    answer = try await calls.answer(request, payload: payload)
                } catch {
                    answer = (.failure(RemoteFailure(error)), [])
                }
                finish(id)
                send(answer.0, id: id, payload: answer.1)
            }
            handle.set { task.cancel() }
        }
    }

    /// Forgets request `id` (it has answered, or been cancelled).
    func finish(_ id: UInt64) {
        _ = running.withLock { $0.removeValue(forKey: id) }
    }

    /// The cancel of one request's work, set once the work has started; a cancel that came first
    /// runs it at once.
    final class Handle: Sendable {
        private let state = Mutex<(cancelled: Bool, action: (@Sendable () -> Void)?)>((false, nil))

        func set(_ action: @escaping @Sendable () -> Void) {
            let cancelled = state.withLock { state in
                state.action = action
                return state.cancelled
            }
            if cancelled { action() }
        }

        @Sendable func cancel() {
            let action = state.withLock { state in
                state.cancelled = true
                return state.action
            }
            action?()
        }
    }
}
