import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit

/// The remote side of a `RemotePlace`: `qlbrowse serve --stdio` reads `RemoteRequest` frames from
/// one descriptor and writes `RemoteAnswer` frames to another, serving a `LocalPlace` (listings,
/// reads, writes, file operations, thumbnails made and cached here, where the files are). Every
/// request runs at once on a task of its own, so many are in flight; `cancel` stops one; the end
/// of the input (the link gone) cancels them all.
package final class RemoteServer: Sendable {
    private let place: LocalPlace
    private let input: Int32
    /// The answers' descriptor, held while a frame is written (frames never interleave).
    private let output: Mutex<Int32>
    /// What runs for each request id, to cancel.
    private let running = Mutex<[UInt64: @Sendable () -> Void]>([:])
    private let software: String
    /// Thumbnails made in the order asked, a few more at once than the workers.
    private let turns = RemoteThumbnailTurns(width: min(WorkerPool.coreCount, 4) + 2)

    /// Serves `place`, reading requests from `input` and answering on `output`.
    package init(place: LocalPlace, input: Int32, output: Int32, software: String) {
        self.place = place
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
        send(.hello(version: RemoteCodec.version, software: software), id: first.id)
        guard hello.version == RemoteCodec.version else { return .otherVersion(hello.version) }
        while true {
            let frame: WorkerFrame?
            do { frame = try FrameCodec.read(from: input) } catch { frame = nil }
            guard let frame else { break }
            do throws(WorkerCodecError) {
                let request = try RemoteCodec.request(in: frame)
                if case .cancel = request {
                    let cancel = running.withLock { $0.removeValue(forKey: frame.id) }
                    cancel?()
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
        return .closed
    }

    /// Writes one answer; a link gone is noticed by the reader.
    func send(_ answer: RemoteAnswer, id: UInt64, payload: [UInt8] = []) {
        let frame = RemoteCodec.frame(answer, id: id, payload: payload)
        if RemoteTrace.isOn { RemoteTrace.note("remote", "answers \(id) \(RemoteTrace.describe(answer)) \(frame.head.count + frame.payload.count) bytes") }
        output.withLock { fd in _ = try? FrameCodec.write(frame, to: fd) }
    }

    private func start(_ request: RemoteRequest, id: UInt64, payload: [UInt8]) {
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
                        let (encoding, bytes) = RemotePictureEncoding.encode(picture)
                        send(.thumbnail(.init(type: picture.type, source: picture.source, contentType: picture.contentType, facts: picture.facts,
                                              encoding: encoding)), id: id, payload: bytes)
                    case .failure(let error):
                        send(.failure(RemoteFailure(error)), id: id)
                    }
                }, completion: { [turns] _ in turns.leave() })
                handle.set { progress.cancel() }
            }
        default:
            let calls = RemoteCalls(place: place)
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
    private func finish(_ id: UInt64) {
        _ = running.withLock { $0.removeValue(forKey: id) }
    }

    /// The cancel of one request's work, set once the work has started; a cancel that came first
    /// runs it at once.
    private final class Handle: Sendable {
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
