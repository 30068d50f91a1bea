import ArgumentParser
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `qlbrowse dbus`: serves the freedesktop thumbnailer interface on the D-Bus session bus, so
/// desktop programs that ask tumbler for thumbnails (file managers, file choosers) can ask qlbrowse.
struct DBusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbus",
        abstract: "Serve org.freedesktop.thumbnails.Thumbnailer1 (tumbler's interface) on the D-Bus session bus.",
        discussion: """
            Thumbnails are written to the shared cache at the flavor asked for (normal, large, \
            x-large, xx-large) and announced with Ready; failures with Error and tumbler's codes. \
            Decoding goes to the resident thumbnail service. Exits after --idle-seconds without \
            work, or when another program takes the name (--replace takes it from one that allows it). \
            To start it on demand, put a D-Bus service file in ~/.local/share/dbus-1/services (README).
            """)

    @Option(parsing: .unconditional, help: "Seconds without calls or work after which it exits (0: never).")
    var idleSeconds = 300

    @Flag(help: "Take the name over from the program serving it now, if that one allows it (tumblerd does not).")
    var replace = false

    @Flag(help: "Decode in workers of its own, not in the resident thumbnail service.")
    var noService = false

    func validate() throws {
        guard (0...31_536_000).contains(idleSeconds) else { throw ValidationError("--idle-seconds takes seconds from 0 (never) to 31536000 (a year)") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let config = UserConfig.load()
        let workers = WorkerChoice.backend(noService: noService, config: config) { WorkerPool(stderrPath: ProcessEnvironment.workerLog) }
        let cache = ThumbnailCache()
        // The resident service and its first worker start now, while the bus hands this process its
        // name and the client its first reply: activation and the service start together.
        Task { await workers.prepare() }
        let thumbnailer = DBusThumbnailer(generator: ThumbnailGenerator(workers: workers, cache: cache), cache: cache,
                                          supportedTypes: { Self.supportedTypes() })
        /// Set on the loop's thread, read on it after the loop.
        final class Outcome: @unchecked Sendable { var lostName = false }
        let outcome = Outcome()
        let service: DBusService
        do {
            service = try DBusService.serve(name: DBusThumbnailer.name, path: DBusThumbnailer.path, introspection: DBusThumbnailer.introspection,
                                            replace: replace, handle: { thumbnailer.handle($0) }, lost: { service, why in
                switch why {
                case .taken:
                    StandardStream.write("qlbrowse: another program serves \(DBusThumbnailer.name) (tumblerd?), or took it over: leaving\n", to: 2)
                    outcome.lostName = true
                case .noBus:
                    StandardStream.write("qlbrowse: cannot connect to the D-Bus session bus (is DBUS_SESSION_BUS_ADDRESS set?)\n", to: 2)
                    outcome.lostName = true
                case .refused:
                    StandardStream.write("qlbrowse: the session bus would not take \(DBusThumbnailer.path)\n", to: 2)
                    outcome.lostName = true
                case .busGone:
                    break  // the session ended: nothing left to serve
                }
                service.stop()
            })
        } catch {
            throw RuntimeError(error.message)
        }
        thumbnailer.attach(service)
        if idleSeconds > 0 {
            // Checked on the thread calls arrive on: a Queue cannot slip in between the check and the end.
            service.every(seconds: 1) {
                if let idle = thumbnailer.idleNanos, idle >= Int64(idleSeconds) * 1_000_000_000 { service.stop() }
            }
        }
        service.run()
        if outcome.lostName { throw ExitCode(1) }
    }

    /// The MIME types the worker thumbnails (as `qlbrowse types` lists them), remembered from the last run.
    static func supportedTypes() -> [String] {
        SupportedTypesMemo().types {
            var seen = Set<String>()
            return (WorkerTypes.read()?.thumbnailers ?? []).map { $0[0] }.filter { seen.insert($0).inserted }
        }
    }
}
