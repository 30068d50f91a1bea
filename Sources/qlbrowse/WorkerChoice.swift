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
        let idle = config.values["service_idle_seconds"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? defaultIdleSeconds
        let command = [ServiceIdentity.ownExecutable(), "service", "--idle-seconds", String(idle)]
        return ServiceClient(command: command, log: ProcessEnvironment.stateFolder + "/service.log", limits: limits, fallback: ownPool)
    }

    static func usesService(noService: Bool, config: UserConfig, environment: ProcessEnvironment = .current) -> Bool {
        if noService || environment["QLBROWSE_DEBUG"] != nil { return false }
        if let off = environment["QLBROWSE_NO_SERVICE"], off != "0" { return false }
        return !["false", "off", "no", "0"].contains(config.values["service"]?.lowercased() ?? "true")
    }
}
