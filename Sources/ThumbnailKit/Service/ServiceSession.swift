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
        guard let (hello, _) = try? FrameCodec.read(from: socket, waitingUpTo: 5000), hello.kind == .hello else { return }
        guard server.welcomes(identity: hello.identity) else {
            var refusal = WorkerMessage(kind: .failure, id: 0)
            refusal.failureKind = "replaced"
            refusal.reason = "the service is another build and is going away"
            send(FrameCodec.encode(refusal))
            return
        }
        var welcome = WorkerMessage(kind: .hello, id: 0)
        welcome.identity = server.identity
        send(FrameCodec.encode(welcome))
        while let (message, _) = (try? FrameCodec.read(from: socket.fd)) ?? nil {
            switch message.kind {
            case .request: relay(message)
            case .cancel: running.withLock { $0[message.id] }?.cancel()
            default: break
            }
        }
    }

    /// Hands the request to the pool and its events back to the client.
    private func relay(_ request: WorkerMessage) {
        let id = request.id
        if let refusal = Self.refusal(of: request) {
            send(WorkerReply.endFrame(id: id, error: refusal))
            return
        }
        let pool = server.pool
        server.requestStarted()
        running.withLock { tasks in
            tasks[id] = Task { [self] in
                var failure: Error?
                do {
                    for try await event in pool.submit(request) { send(WorkerReply.frame(for: event, id: id)) }
                } catch {
                    failure = error
                }
                send(WorkerReply.endFrame(id: id, error: failure))
                running.withLock { _ = $0.removeValue(forKey: id) }
                server.requestEnded()
            }
        }
    }

    private func send(_ frame: [UInt8]) {
        writer.async { [self] in
            guard !closed.withLock({ $0 }) else { return }
            if !socket.send(frame) { socket.shutDown() }
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
    /// Why the service will not run `request`, or nil. Edits (`PreviewKind.edit`) stay with the
    /// editing code's own worker (`qlbrowse edit`, Quick Look's): they need its long deadline and
    /// large memory and CPU limits, which are set on a worker process when it starts, and the
    /// service's pool has the standard ones.
    static func refusal(of request: WorkerMessage) -> ThumbnailError? {
        guard request.preview == .edit else { return nil }
        return ThumbnailError(.unsupported, "edits run in the editing command's own worker, not in the service")
    }
}
