import ArgumentParser
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse service` (hidden): the resident per-user thumbnail service. `thumbnail`, `preview`
/// and the browser start it on demand, in a session of its own; it ends by itself when idle.
struct ServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service",
        abstract: "Run the resident thumbnail service (started on demand by the other commands).",
        discussion: """
            Listens on $XDG_RUNTIME_DIR/qlbrowse/service.sock (else /tmp/qlbrowse-UID/service.sock), \
            keeps warm decoder workers for this user's processes only, and exits after --idle-seconds \
            without requests, when a client of another build connects, or when its socket is removed.
            """,
        shouldDisplay: false)

    @Option(parsing: .unconditional, help: "Seconds without requests after which the service exits.")
    var idleSeconds: Double = Double(WorkerChoice.defaultIdleSeconds)

    func validate() throws {
        guard idleSeconds > 0, idleSeconds <= 31_536_000 else { throw ValidationError("--idle-seconds takes seconds, more than 0 and at most 31536000 (a year)") }
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessEnvironment.current
        let endpoint: ServiceEndpoint
        do {
            endpoint = try ServiceEndpoint.prepare(environment: environment)
        } catch {
            ServiceLog.line("cannot start: \(error.message)")
            throw ExitCode(1)
        }
        let worker = WorkerPool.defaultExecutable()
        let server = ServiceServer(endpoint: endpoint, identity: ServiceIdentity.current(workerExecutable: worker, environment: environment),
                                   pool: WorkerPool(cheapSlots: 2, executable: worker, stderrPath: ProcessEnvironment.workerLog, preloads: true), idleSeconds: idleSeconds)
        if case .failed(let why) = await server.run() {
            ServiceLog.line(why)
            throw ExitCode(1)
        }
    }
}
