/// The limits each worker process runs under, so one hostile file costs one file and nothing more.
public struct WorkerLimits: Sendable, Equatable {
    /// Wall-clock time one file may take before its worker is killed.
    public var deadlineSeconds: Double
    /// Address-space limit of a worker (RLIMIT_AS), in bytes.
    public var memoryBytes: Int
    /// CPU time one file may use (RLIMIT_CPU, re-armed per file), in seconds.
    public var cpuSeconds: Int
    /// How long a cancelled decode may keep its worker busy before the worker is killed.
    public var cancelGraceSeconds: Double

    public init(deadlineSeconds: Double = 10, memoryBytes: Int = 1 << 30, cpuSeconds: Int = 20, cancelGraceSeconds: Double = 0.5) {
        self.deadlineSeconds = deadlineSeconds
        self.memoryBytes = memoryBytes
        self.cpuSeconds = cpuSeconds
        self.cancelGraceSeconds = cancelGraceSeconds
    }

    public static let standard = WorkerLimits()
}
