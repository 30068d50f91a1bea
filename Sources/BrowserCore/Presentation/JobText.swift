import FileSystemKit
import SystemKit
import ThumbnailKit

/// A job in words: its line in the jobs panel, its few characters in the status line, and the
/// message when it ends.
public enum JobText {
    /// The jobs panel's line: name, bar, counts, rate and time left; or how it ended.
    public static func line(_ job: JobStatus) -> String {
        let title = job.kind.isFileOperation
            ? DisplayFormat.pad(job.kind.name + " → " + TerminalText.escaped(job.folder), to: 30)
            : DisplayFormat.pad(TerminalText.escaped(job.folder), to: 28)
        switch job.phase {
        case .queued: return title + " queued"
        case .walking, .running: return title + " " + (job.kind.isFileOperation ? fileProgress(job) : thumbnailProgress(job))
        case .finished: return "\(title) done: \(job.report)"
        case .cancelled: return "\(title) cancelled: \(job.report)"
        case .interrupted(let reason):
            return job.kind.isFileOperation ? "\(title) stopped: \(job.report) (\(TerminalText.escaped(reason)))"
                : "\(title) stopped (\(TerminalText.escaped(reason))): \(job.report)"
        }
    }

    private static func thumbnailProgress(_ job: JobStatus) -> String {
        let bar = job.fraction.map { DisplayFormat.bar($0) } ?? "[ finding files…     ]"
        let left = job.secondsLeft.map { " ETA " + DisplayFormat.duration($0) } ?? ""
        return "\(bar) \(job.processed)/\(job.total.map(String.init) ?? "?")  \(DisplayFormat.oneDecimal(job.rate)) files/s\(left)"
    }

    private static func fileProgress(_ job: JobStatus) -> String {
        let bytes = job.bytesTotal > 0
            ? "  \(DisplayFormat.bytes(job.bytesDone))/\(DisplayFormat.bytes(job.bytesTotal))  \(DisplayFormat.bytes(Int64(job.rate)))/s" : ""
        let left = job.secondsLeft.map { " ETA " + DisplayFormat.duration($0) } ?? ""
        return DisplayFormat.bar(job.fraction ?? 0) + "\(bytes)\(left)  \(job.itemsDone)/\(job.total ?? 0) items" + (job.isPaused ? "  paused" : "")
    }

    /// The status line's note of running jobs: "T 45% 120/260", "copy 30% paused", "+1" for more.
    public static func statusNote(_ jobs: [JobStatus]) -> String? {
        let active = jobs.filter(\.phase.isActive)
        guard let job = active.last else { return nil }
        var note: String
        if job.phase == .queued {
            note = (job.kind.isFileOperation ? job.kind.name : "T") + " queued"
        } else if job.kind.isFileOperation {
            note = "\(job.kind.name) " + (job.fraction.map { "\(Int($0 * 100))%" } ?? "…") + (job.isPaused ? " paused" : "")
        } else {
            note = "T " + (job.fraction.map { "\(Int($0 * 100))% " } ?? "") + "\(job.processed)/\(job.total.map(String.init) ?? "?")"
        }
        if active.count > 1 { note += " +\(active.count - 1)" }
        return note
    }

    /// The message when a job ends ("thumbnailed photos: 12 made, …", "copied: 3 done · …").
    public static func ending(_ job: JobStatus) -> String {
        guard case .file(let kind) = job.kind else { return thumbnailEnding(job) }
        let verbs: [FileOperation.Kind: String] = [.copy: "copied", .move: "moved", .trash: "trashed", .delete: "deleted"]
        switch job.phase {
        case .finished: return "\(verbs[kind] ?? kind.rawValue): \(job.report)" + (kind == .trash ? " · U restores" : "")
        case .cancelled: return "cancelled: \(job.report)"
        case .interrupted(let reason): return "\(TerminalText.escaped(reason)) — \(job.report)"
        case .queued, .walking, .running: return ""
        }
    }

    private static func thumbnailEnding(_ job: JobStatus) -> String {
        let name = BrowserState.lastComponent(job.folder)
        switch job.phase {
        case .finished: return "thumbnailed \(name): \(job.report)"
        case .cancelled: return "cancelled \(name): \(job.report)"
        case .interrupted(let reason):
            let notDone = job.total.map { $0 - job.processed } ?? 0
            return "\(reason): \(name) stopped with \(job.generated + job.alreadyCached) done, \(notDone) not done (J)"
        case .queued, .walking, .running: return ""
        }
    }
}
