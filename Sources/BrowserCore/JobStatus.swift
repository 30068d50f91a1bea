/// A background job as the jobs panel shows it: thumbnailing a folder (`T`).
public struct JobStatus: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Finding the files.
        case walking
        case running
        case finished
        case cancelled
        /// Stopped by something outside the user's wish: the volume went away.
        case interrupted(String)

        public var isActive: Bool { self == .walking || self == .running }
    }

    public let id: Int
    public let folder: String
    /// Also writing `.sh_thumbnails` beside the files, for other machines.
    public let writesShared: Bool
    public var phase: Phase = .walking
    /// Files found by the walk; nil while walking.
    public var total: Int?
    public var generated = 0
    public var alreadyCached = 0
    public var failed = 0
    public var skipped = 0
    /// Seconds since the job began.
    public var elapsed = 0.0

    public init(id: Int, folder: String, writesShared: Bool) {
        self.id = id
        self.folder = folder
        self.writesShared = writesShared
    }

    /// Files looked at so far, whatever became of them.
    public var processed: Int { generated + alreadyCached + failed + skipped }

    /// 0…1, or nil before the walk ends.
    public var fraction: Double? {
        guard let total else { return nil }
        return total == 0 ? 1 : min(1, Double(processed) / Double(total))
    }

    /// Files per second so far.
    public var rate: Double { elapsed > 0 ? Double(processed) / elapsed : 0 }

    /// Seconds left at the current rate, once it is known.
    public var secondsLeft: Double? {
        guard let total, phase.isActive, rate > 0 else { return nil }
        return Double(total - processed) / rate
    }

    /// One line: what was done and what was not.
    public var report: String {
        var parts = ["\(generated) made", "\(alreadyCached) already cached"]
        if failed > 0 { parts.append("\(failed) failed") }
        if skipped > 0 { parts.append("\(skipped) skipped") }
        if let total, !phase.isActive, processed < total { parts.append("\(total - processed) not done") }
        return parts.joined(separator: ", ")
    }
}
