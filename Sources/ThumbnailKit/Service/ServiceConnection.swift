import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// A client's one connection to the resident service, shared by all of its requests: each
/// request is a frame with an id of this process's choosing, and the replies of all requests
/// come back interleaved on one reader thread, routed by id. When the connection breaks (the
/// service crashed, was killed, or went idle) every open request ends with `ServiceLost`, so the
/// client can try again.
final class ServiceConnection: Sendable {
    private struct State {
        var isOpen = true
        var routes: [UInt64: AsyncThrowingStream<WorkerEvent, Error>.Continuation] = [:]
        /// When the service was last heard from, or a request was sent while none was open.
        var lastHeard = SystemTime.now()
    }

    /// How a connection attempt went.
    enum Outcome: Sendable {
        case connected(ServiceConnection)
        /// A service of another build answered; it is going away.
        case replaced
        /// No service answers here (or it cannot be trusted): why, in words.
        case absent(String)
    }

    private let socket: LocalSocket
    private let state = Mutex(State())
    /// Frames from several tasks must not interleave on the stream.
    private let sending = Mutex(())
    /// Silence longer than this with requests open means the service hangs.
    private let silenceLimit: Int64

    private init(socket: LocalSocket, silenceSeconds: Double) {
        self.socket = socket
        self.silenceLimit = Int64(saturating: silenceSeconds * 1e9)
    }

    /// Connects to the service at `endpoint` (blocking), checks that it runs as our user, and
    /// shakes hands with `identity`. `silenceSeconds`: how long open requests may go unanswered
    /// before the service is taken for hung (longer than any worker deadline).
    static func open(_ endpoint: ServiceEndpoint, identity: String, silenceSeconds: Double) -> Outcome {
        let socket: LocalSocket
        do { socket = try LocalSocket.connect(to: endpoint.socketPath) } catch { return .absent(error.message) }
        guard let peer = try? socket.peer(), peer.isOurUser else {
            socket.close()
            return .absent("the service at \(endpoint.socketPath) does not run as this user")
        }
        guard socket.send(WorkerCodec.frame(WorkerRequest.hello(identity: identity), id: 0).bytes),
              let frame = try? FrameCodec.read(from: socket, waitingUpTo: 3000) else {
            socket.close()
            return .absent("the service at \(endpoint.socketPath) did not answer")
        }
        let reply = Result { () throws(WorkerCodecError) in try WorkerCodec.answer(in: frame) }
        guard case .success(.hello) = reply else {
            socket.close()
            switch reply {
            case .success(.replaced): return .replaced
            case .success(.failure(let failure)): return .absent(failure.reason)
            case .failure(let error): return .absent("the service's answer could not be read: \(error)")
            default: return .absent("the service refused the connection")
            }
        }
        let connection = ServiceConnection(socket: socket, silenceSeconds: silenceSeconds)
        DetachedThread.start(stackSize: 1 << 20) { connection.readReplies() }
        DetachedThread.start(stackSize: 64 * 1024) { connection.watchSilence() }
        return .connected(connection)
    }

    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Sends `request` under a new id; its events arrive on the stream. Ending the iteration
    /// early cancels it in the service.
    func run(_ request: WorkerRequest, deadline: WorkerDeadline) -> AsyncThrowingStream<WorkerEvent, Error> {
        let id = RequestIdentifiers.next()
        let (stream, continuation) = AsyncThrowingStream<WorkerEvent, Error>.makeStream()
        continuation.onTermination = { [weak self] termination in
            guard case .cancelled = termination, let self else { return }
            guard self.state.withLock({ $0.routes.removeValue(forKey: id) }) != nil else { return }
            self.send(WorkerCodec.frame(.cancel, id: id))
        }
        let added = state.withLock { state in
            guard state.isOpen else { return false }
            if state.routes.isEmpty { state.lastHeard = SystemTime.now() }
            state.routes[id] = continuation
            return true
        }
        guard added else {
            continuation.finish(throwing: ServiceLost())
            return stream
        }
        if !send(WorkerCodec.frame(request, id: id, deadline: deadline)) { close() }
        return stream
    }

    @discardableResult
    private func send(_ frame: WorkerFrame) -> Bool {
        let bytes = frame.bytes
        return sending.withLock { _ in socket.send(bytes) }
    }

    /// Ends the connection: open requests end with `ServiceLost`, the reader thread stops.
    func close() {
        socket.shutDown()
    }

    private func readReplies() {
        while let frame = (try? FrameCodec.read(from: socket.fd)) ?? nil {
            let id = frame.id
            let continuation = state.withLock { state in
                state.lastHeard = SystemTime.now()
                return state.routes[id]
            }
            guard let continuation else { continue }
            let answer: WorkerAnswer
            do throws(WorkerCodecError) {
                answer = try WorkerCodec.answer(in: frame)
            } catch {
                endRoute(id, throwing: ThumbnailError(.crashed, "the service's answer could not be read: \(error)"))
                continue
            }
            switch WorkerEvent.meaning(of: answer, payload: frame.payload) {
            case .event(let event):
                continuation.yield(event)
            case .last(let event):
                continuation.yield(event)
                endRoute(id, throwing: nil)
            case .end(let error):
                endRoute(id, throwing: error)
            case .none:
                break
            }
        }
        let open = state.withLock { state in
            state.isOpen = false
            defer { state.routes.removeAll() }
            return state.routes
        }
        for continuation in open.values { continuation.finish(throwing: ServiceLost()) }
        socket.close()
    }

    private func endRoute(_ id: UInt64, throwing error: ThumbnailError?) {
        state.withLock { $0.routes.removeValue(forKey: id) }?.finish(throwing: error)
    }

    /// Closes the connection when requests are open and the service has said nothing for longer
    /// than any worker may take (its pool kills a worker at its deadline, so a live service
    /// always says something): a stopped or wedged service must not hang its clients.
    private func watchSilence() {
        while true {
            sleep(1)
            let (open, silent) = state.withLock { ($0.isOpen, !$0.routes.isEmpty && SystemTime.now() - $0.lastHeard > silenceLimit) }
            guard open else { return }
            if silent {
                close()
                return
            }
        }
    }
}

/// The connection to the service broke before the request was answered.
struct ServiceLost: Error, Sendable {}
