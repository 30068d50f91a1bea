import Synchronization
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// The resident per-user thumbnail service (`qlbrowse service`), like tumblerd or Apple's
/// quicklookd: one warm `WorkerPool` serving every `thumbnail` and `preview` call and every
/// browser of this user over a Unix socket in a private folder.
///
/// Only processes of this user are served (the kernel's SO_PEERCRED, checked on every connection;
/// others are refused and named in the log). It steps aside for another build (a client whose
/// identity differs), and ends by itself after `idleSeconds` with nothing to do, or once its
/// socket was removed or replaced. Decoding keeps the pool's deadline, limits and cancellation.
package final class ServiceServer: Sendable {
    /// Why the service ended.
    package enum Ending: Sendable, Equatable, CustomStringConvertible {
        case idle, replaced, socketGone, failed(String)

        package var description: String {
            switch self {
            case .idle: return "idle: exiting"
            case .replaced: return "replaced by another build: exiting"
            case .socketGone: return "its socket was removed or replaced: exiting"
            case .failed(let why): return why
            }
        }
    }

    private struct Activity {
        var inFlight = 0
        var lastActivity = SystemTime.now()
        var retiring = false
        var socketID: ServiceEndpoint.FileID?
    }

    let endpoint: ServiceEndpoint
    let identity: String
    let pool: WorkerPool
    private let idleNanos: Int64
    private let activity = Mutex(Activity())

    package init(endpoint: ServiceEndpoint, identity: String, pool: WorkerPool, idleSeconds: Double) {
        self.endpoint = endpoint
        self.identity = identity
        self.pool = pool
        self.idleNanos = Int64(saturating: idleSeconds * 1e9)
    }

    /// Listens, serves, and returns once the service should end (its workers stopped).
    package func run() async -> Ending {
        let listener: LocalSocket
        do {
            listener = try bind()
        } catch {
            return .failed("cannot listen on \(endpoint.socketPath): \(error.message)")
        }
        let socketID = endpoint.socketFileID()
        activity.withLock { $0.socketID = socketID }
        try? AtomicFileWriter.write(Array("\(getpid())\n".utf8), to: endpoint.pidPath, permissions: 0o600)
        ServiceLog.line("\(getpid()) listening on \(endpoint.socketPath)")
        // One worker at once, for the request that started the service; more start when requests
        // come together (starting them all at once slowed the first request on two cores).
        await pool.warmUp(count: 1)
        let ending = await withCheckedContinuation { (done: CheckedContinuation<Ending, Never>) in
            DetachedThread.start(stackSize: 256 * 1024) { done.resume(returning: self.accept(on: listener)) }
        }
        listener.close()
        if endpoint.socketFileID() == socketID { unlink(endpoint.socketPath) }
        if FileDescriptorReader.readFile(endpoint.pidPath, upTo: 32).map({ String(decoding: $0, as: UTF8.self) }) == "\(getpid())\n" {
            unlink(endpoint.pidPath)
        }
        ServiceLog.line("\(getpid()) \(ending)")
        await pool.shutdown()
        return ending
    }

    /// A listening socket at the path, after removing a stale one (nothing answers on it).
    private func bind() throws(FileSystemError) -> LocalSocket {
        if let live = try? LocalSocket.connect(to: endpoint.socketPath) {
            live.close()
            throw FileSystemError(code: .exists, path: endpoint.socketPath, context: "a service already answers on \(endpoint.socketPath)")
        }
        unlink(endpoint.socketPath)
        return try LocalSocket.listen(at: endpoint.socketPath)
    }

    /// Accepts connections until the service should end.
    private func accept(on listener: LocalSocket) -> Ending {
        while true {
            if listener.waitReadable(milliseconds: 1000), let connection = try? listener.accept() {
                admit(connection)
            }
            if let ending = ending() { return ending }
        }
    }

    /// Serves a connection of this user; refuses (and logs) anyone else's.
    private func admit(_ connection: LocalSocket) {
        guard let peer = try? connection.peer() else {
            connection.close()
            return
        }
        guard peer.isOurUser else {
            ServiceLog.line("refused a connection from uid \(peer.uid) (pid \(peer.pid)): only uid \(geteuid()) may use this service")
            connection.close()
            return
        }
        ServiceSession(socket: connection, server: self).start()
    }

    private func ending() -> Ending? {
        let ownSocket = endpoint.socketFileID()
        return activity.withLock { state -> Ending? in
            guard state.inFlight == 0 else { return nil }
            if state.retiring { return .replaced }
            if ownSocket != state.socketID { return .socketGone }
            return SystemTime.now() - state.lastActivity >= idleNanos ? .idle : nil
        }
    }

    /// Whether a client of `identity` may be served; a client of another build retires this
    /// service: its socket goes at once (so the next client starts the new build), it ends once
    /// what it is doing is done.
    func welcomes(identity clientIdentity: String?) -> Bool {
        guard clientIdentity != identity else { return true }
        let wasRetiring = activity.withLock { state in
            defer { state.retiring = true }
            return state.retiring
        }
        if !wasRetiring {
            if endpoint.socketFileID() == activity.withLock({ $0.socketID }) { unlink(endpoint.socketPath) }
            ServiceLog.line("a client of another build connected (\(clientIdentity ?? "no identity")); this one is \(identity)")
        }
        return false
    }

    func requestStarted() {
        activity.withLock { $0.inFlight += 1 }
    }

    func requestEnded() {
        activity.withLock { state in
            state.inFlight -= 1
            state.lastActivity = SystemTime.now()
        }
    }
}
