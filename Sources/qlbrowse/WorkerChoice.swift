import SystemKit
import ThumbnailKit

/// Where a command's decoding goes: to the resident service (the default), or to workers of the
/// command's own with `--no-service`, `service = false` in config.toml, `QLBROWSE_NO_SERVICE=1`,
/// or `QLBROWSE_DEBUG` (whose point is workers writing to this terminal).
enum WorkerChoice {
    /// How long the service waits without requests before it exits (`service_idle_seconds`).
    static let defaultIdleSeconds = 600

    /// The backend for a command; `ownPool` makes the pool it uses without the service (also the
    /// service client's fallback, made only if needed).
    static func backend(noService: Bool, config: UserConfig, limits: WorkerLimits = .standard,
                        ownPool: @escaping @Sendable () -> WorkerPool) -> any WorkerBackend {
        guard usesService(noService: noService, config: config) else { return ownPool() }
        return serviceClient(idleSeconds: idleSeconds(config), limits: limits, fallback: ownPool)
    }

    /// A client of the resident service, started with `idleSeconds` if none answers.
    static func serviceClient(idleSeconds: Int, limits: WorkerLimits = .standard,
                              fallback: @escaping @Sendable () -> WorkerPool) -> ServiceClient {
        let command = [ServiceIdentity.ownExecutable(), "service", "--idle-seconds", String(idleSeconds)]
        return ServiceClient(command: command, log: ProcessEnvironment.stateFolder + "/service.log", limits: limits, fallback: fallback)
    }

    static func idleSeconds(_ config: UserConfig) -> Int {
        // At most a year: the service turns it into nanoseconds.
        config.values["service_idle_seconds"].flatMap(Int.init).flatMap { $0 > 0 ? min($0, 31_536_000) : nil } ?? defaultIdleSeconds
    }

    static func usesService(noService: Bool, config: UserConfig, environment: ProcessEnvironment = .current) -> Bool {
        if noService || environment["QLBROWSE_DEBUG"] != nil { return false }
        if let off = environment["QLBROWSE_NO_SERVICE"], off != "0" { return false }
        return !["false", "off", "no", "0"].contains(config.values["service"]?.lowercased() ?? "true")
    }
}
