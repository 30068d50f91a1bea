import FileSystemKit
import SystemKit

/// What a background job does: thumbnail a folder (`T`), or a file operation.
public enum JobKind: Sendable, Equatable {
    case thumbnails
    case file(FileOperation.Kind)

    public var isFileOperation: Bool { self != .thumbnails }

    /// The word for it in the jobs panel: "thumbnails", "copy", "move", "trash", "delete".
    public var name: String {
        switch self {
        case .thumbnails: return "thumbnails"
        case .file(let kind): return kind.rawValue
        }
    }
}

/// A background job as the jobs panel shows it: thumbnailing a folder, or copying, moving,
/// trashing or deleting files.
public struct JobStatus: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Waiting in the scheduler's queue for a slot (its volume or the browser has as many
        /// running as they take); cancelling it ends it at once.
        case queued
        /// Finding the files.
        case walking
        case running
        case finished
        case cancelled
        /// Stopped by something outside the user's wish: the volume went away.
        case interrupted(String)

        public var isActive: Bool { self == .queued || self == .walking || self == .running }
    }

    public let id: Int
    public let kind: JobKind
    /// The folder thumbnailed, or where a file operation writes.
    public let folder: String
    /// Also writing `.sh_thumbnails` beside the files, for other machines.
    public let writesShared: Bool
    public var phase: Phase = .walking
    /// Files found by the walk (thumbnails) or items to do (file operations); nil while walking.
    public var total: Int?
    /// Thumbnails: made, found in the cache, failed, skipped.
    public var generated = 0
    public var alreadyCached = 0
    public var failed = 0
    public var skipped = 0
    /// Thumbnails: folders the walk could not list (no permission, a path longer than the system
    /// takes): their files were never looked at.
    public var foldersNotListed = 0
    /// File operations: items done.
    public var itemsDone = 0
    /// Seconds since the job began.
    public var elapsed = 0.0
    /// File operations: bytes copied and to copy.
    public var bytesDone: Int64 = 0
    public var bytesTotal: Int64 = 0
    public var isPaused = false
    /// File operations: how it ended, in words ("3 done, 1 not done").
    public var detail: String?

    public init(id: Int, kind: JobKind = .thumbnails, folder: String, writesShared: Bool = false) {
        self.id = id
        self.kind = kind
        self.folder = folder
        self.writesShared = writesShared
    }

    /// Thumbnails: files looked at so far, whatever became of them.
    public var processed: Int { generated + alreadyCached + failed + skipped }

    /// 0…1, or nil before the walk ends.
    public var fraction: Double? {
        if kind.isFileOperation && bytesTotal > 0 { return min(1, Double(bytesDone) / Double(bytesTotal)) }
        guard let total else { return nil }
        let done = kind.isFileOperation ? itemsDone : processed
        return total == 0 ? 1 : min(1, Double(done) / Double(total))
    }

    /// Files per second so far (bytes per second for file operations).
    public var rate: Double {
        guard elapsed > 0 else { return 0 }
        return kind.isFileOperation ? Double(bytesDone) / elapsed : Double(processed) / elapsed
    }

    /// Seconds left at the current rate, once it is known.
    public var secondsLeft: Double? {
        guard phase.isActive, !isPaused, rate > 0 else { return nil }
        if kind.isFileOperation { return bytesTotal > bytesDone ? Double(bytesTotal - bytesDone) / rate : nil }
        guard let total else { return nil }
        return Double(total - processed) / rate
    }

    /// One line: what was done and what was not.
    public var report: String {
        if let detail { return detail }
        var parts = ["\(generated) made", "\(alreadyCached) already cached"]
        if failed > 0 { parts.append("\(failed) failed") }
        if skipped > 0 { parts.append("\(skipped) skipped") }
        if foldersNotListed > 0 { parts.append("\(foldersNotListed) folder\(foldersNotListed == 1 ? "" : "s") could not be read") }
        if let total, !phase.isActive, processed < total { parts.append("\(total - processed) not done") }
        return parts.joined(separator: ", ")
    }
}
