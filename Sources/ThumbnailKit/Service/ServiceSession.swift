import Dispatch
import Synchronization
import SystemKit

/// One client's connection to the service: a hello first (the same build, or the service steps
/// aside), then requests and cancels in, the pool's events out as frames under the client's ids.
/// A connection that closes cancels what it asked for.
final class ServiceSession: Sendable {
    private let socket: LocalSocket
    private let server: ServiceServer
    /// Replies of concurrent requests are written one frame at a time, in order, off the
    /// cooperative threads; closing goes through it too, so no write meets a reused descriptor.
    private let writer = DispatchQueue(label: "qlbrowse.service.session")
    private let closed = Mutex(false)
    private let running = Mutex<[UInt64: Task<Void, Never>]>([:])

    init(socket: LocalSocket, server: ServiceServer) {
        self.socket = socket
        self.server = server
    }

    func start() {
        DetachedThread.start(stackSize: 1 << 20) { self.serve() }
    }

    private func serve() {
        defer { end() }
        // A client that connects and says nothing is not waited for long.
        guard let first = try? FrameCodec.read(from: socket, waitingUpTo: 5000),
              case .hello(let identity)? = try? WorkerCodec.request(in: first).0 else { return }
        guard server.welcomes(identity: identity) else {
            send(WorkerCodec.frame(.replaced(reason: "the service is another build and is going away"), id: 0))
            return
        }
        send(WorkerCodec.frame(WorkerAnswer.hello(identity: server.identity), id: 0))
        while let frame = (try? FrameCodec.read(from: socket.fd)) ?? nil {
            let id = frame.id
            do throws(WorkerCodecError) {
                switch try WorkerCodec.request(in: frame) {
                case (.cancel, _): running.withLock { $0[id] }?.cancel()
                case (.hello, _): break
                case (let request, let deadline): relay(request, id: id, deadlineSeconds: deadline.seconds)
                }
            } catch {
                send(WorkerCodec.frame(.failure(.init(ThumbnailError(.unsupported, "the service cannot read the request: \(error)"))), id: id))
            }
        }
    }

    /// Hands the request to the pool and the worker's frames back to the client, each under the
    /// client's id and otherwise as the worker wrote it.
    private func relay(_ request: WorkerRequest, id: UInt64, deadlineSeconds: Double?) {
        if let refusal = Self.refusal(of: request) {
            send(WorkerCodec.failureFrame(id: id, error: refusal))
            return
        }
        let pool = server.pool
        server.requestStarted()
        running.withLock { tasks in
            tasks[id] = Task { [self] in
                do {
                    for try await reply in pool.replies(to: request, deadlineSeconds: deadlineSeconds) {
                        var frame = reply.frame
                        frame.id = id
                        send(frame)
                    }
                } catch {
                    send(WorkerCodec.failureFrame(id: id, error: error))
                }
                running.withLock { _ = $0.removeValue(forKey: id) }
                server.requestEnded()
            }
        }
    }

    private func send(_ frame: WorkerFrame) {
        writer.async { [self] in
            guard !closed.withLock({ $0 }) else { return }
            if !socket.send(frame.head) || !(frame.payload.isEmpty || socket.send(frame.payload)) { socket.shutDown() }
        }
    }

    /// The client is gone (or refused): its requests are cancelled, the socket closed after the
    /// frames already queued.
    private func end() {
        for task in running.withLock({ $0.values }) { task.cancel() }
        writer.async { [self] in
            closed.withLock { $0 = true }
            socket.close()
        }
    }
}

extension ServiceSession {
    /// Why the service will not run `request`, or nil. Edits (`WorkerRequest.edit`) stay with the
    /// editing code's own worker (`qlbrowse edit`, Quick Look's): they need its long deadline and
    /// large memory and CPU limits, which are set on a worker process when it starts, and the
    /// service's pool has the standard ones.
    static func refusal(of request: WorkerRequest) -> ThumbnailError? {
        guard case .edit = request else { return nil }
        return ThumbnailError(.unsupported, "edits run in the editing command's own worker, not in the service")
    }
}
