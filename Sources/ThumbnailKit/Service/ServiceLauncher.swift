import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Finds this build's resident service, or starts it: the client's half of "started on demand".
/// Its calls block (connecting, spawning, waiting for the socket), so `ServiceClient` runs them on
/// a thread of their own.
struct ServiceLauncher: Sendable {
    /// The service's command line (`qlbrowse service --idle-seconds N`).
    let command: [String]
    /// Where the service's standard output and error go, and where the client notes why it could
    /// not use the service.
    let log: String
    /// How long requests may go unanswered before the service is taken for hung.
    let silenceSeconds: Double

    /// How long a start may take before the client gives up on the service.
    static let startSeconds = 10.0

    /// A connection to a service of this build, started when none answers. `afterFailure`: the
    /// last connection broke, so a service must not be trusted just for accepting a connection
    /// (it is asked again under the start lock, and replaced if it does not answer).
    func connect(afterFailure: Bool) -> Result<ServiceConnection, ServiceUnavailable> {
        let environment = ProcessEnvironment.current
        let endpoint: ServiceEndpoint
        do { endpoint = try ServiceEndpoint.prepare(environment: environment) } catch { return .failure(ServiceUnavailable(error.message)) }
        let identity = ServiceIdentity.current(workerExecutable: WorkerPool.defaultExecutable(), environment: environment)
        if !afterFailure, case .connected(let connection) = ServiceConnection.open(endpoint, identity: identity, silenceSeconds: silenceSeconds) {
            return .success(connection)
        }
        // One client at a time starts a service; the others wait here and then find it running.
        let lock: FileLock?
        do { lock = try FileLock.acquire(endpoint.lockPath, waitingUpTo: Self.startSeconds) } catch { return .failure(ServiceUnavailable(error.message)) }
        guard let lock else { return .failure(ServiceUnavailable("another process held \(endpoint.lockPath) for \(Int(Self.startSeconds)) s")) }
        defer { lock.release() }
        if case .connected(let connection) = ServiceConnection.open(endpoint, identity: identity, silenceSeconds: silenceSeconds) {
            return .success(connection)
        }
        // Nothing answers as this build: a stale socket, a dead or hung service, or another build
        // that has just stepped aside. The new service binds a fresh socket at the path.
        unlink(endpoint.socketPath)
        let pid: Int32
        do { pid = try SessionProcess.start(command, log: log) } catch { return .failure(ServiceUnavailable("cannot start the service: \(error.message)")) }
        let deadline = SystemTime.now() + Int64(Self.startSeconds * 1e9)
        var last = "no answer"
        while SystemTime.now() < deadline {
            switch ServiceConnection.open(endpoint, identity: identity, silenceSeconds: silenceSeconds) {
            case .connected(let connection): return .success(connection)
            case .replaced: return .failure(ServiceUnavailable("the service it started says it is another build"))
            case .absent(let why): last = why
            }
            guard kill(pid, 0) == 0 else { return .failure(ServiceUnavailable("the service exited as it started (see \(log)): \(last)")) }
            usleep(2_000)
        }
        return .failure(ServiceUnavailable("the service did not answer within \(Int(Self.startSeconds)) s: \(last)"))
    }
}

/// Why the service could not be used; the client falls back to workers of its own.
struct ServiceUnavailable: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
