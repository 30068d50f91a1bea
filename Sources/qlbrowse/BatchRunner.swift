import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Drives a place's batch (`Place.thumbnailFolders`) for `qlbrowse thumbnail -r`: a progress bar on a terminal (plain
/// periodic lines otherwise), Ctrl-C and SIGTERM stop it cleanly, and a summary at the end.
struct BatchRunner {
    struct Summary: Sendable {
        var total = 0
        var generated = 0
        var cached = 0
        var failed = 0
        var skipped = 0
        var failures: [(String, String)] = []
        var interrupted = false
        /// Why the run stopped early ("photos was disconnected"), when its volume went away.
        var stopReason: String?
        /// Folders the walk could not list before the volume went away: their files were never reached.
        var unlistedFolders = 0
        /// Roots and folders that could not be listed while the volume was there (missing, no
        /// permission, a path too long for the system), with why: named, and the run fails.
        var skippedFolders: [(String, String)] = []
        var done: Int { generated + cached + failed + skipped }
    }

    let json: Bool
    /// The batch's events for the roots: the place's `thumbnailFolders`.
    let events: @Sendable ([String]) -> AsyncStream<ThumbnailBatch.Event>

    func run(_ roots: [String]) async -> Summary {
        let interrupted = Atomic<Bool>(false)
        let consumer = Task { await consume(roots) }
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                interrupted.store(true, ordering: .relaxed)
                consumer.cancel()
            }
            source.resume()
            sources.append(source)
        }
        var summary = await consumer.value
        sources.forEach { $0.cancel() }
        summary.interrupted = interrupted.load(ordering: .relaxed)
        report(summary)
        return summary
    }

    private func consume(_ roots: [String]) async -> Summary {
        var summary = Summary()
        let volumes = VolumeWatch(roots: roots)
        var unlisted = 0
        let progress = ProgressLine(isTerminal: isatty(2) == 1)
        let clock = ContinuousClock()
        let start = clock.now
        events: for await event in events(roots) {
            switch event {
            case .unlisted(let folders):
                unlisted = folders.count
                if let reason = await volumes.goneReason() {
                    summary.stopReason = reason
                    summary.unlistedFolders = unlisted
                } else {
                    summary.skippedFolders = folders.map { ($0.folder, $0.reason) }
                    if json { for (folder, reason) in summary.skippedFolders { emit(["folder": folder, "outcome": "not listed", "error": reason]) } }
                }
            case .found(let total):
                summary.total = total
                // The walk already met the vanished volume: what it found is not done either.
                if summary.stopReason != nil { break events }
            case .file(let path, let outcome):
                switch outcome {
                case .generated(let representation):
                    summary.generated += 1
                    if json { emit(["file": path, "outcome": "generated", "source": representation.source,
                                    "width": representation.image.width, "height": representation.image.height]) }
                case .alreadyCached:
                    summary.cached += 1
                    if json { emit(["file": path, "outcome": "cached"]) }
                case .failed(let error):
                    if error.code == .cancelled { continue }
                    // A read error may mean the volume went away: then the run stops rather than
                    // failing every remaining file, and says what was not done.
                    if error.code == .unreadable, let reason = await volumes.goneReason() {
                        summary.stopReason = reason
                        summary.unlistedFolders = unlisted
                        break events
                    }
                    let reason = error.retryHint("--force retries").reason
                    summary.failed += 1
                    summary.failures.append((path, reason))
                    if json { emit(["file": path, "outcome": "failed", "error": reason]) }
                case .skipped(let reason):
                    summary.skipped += 1
                    if json { emit(["file": path, "outcome": "skipped", "reason": reason]) }
                }
                progress.update(done: summary.done, total: summary.total, elapsed: clock.now - start)
            }
        }
        progress.finish()
        return summary
    }

    private func report(_ summary: Summary) {
        var lines: [String] = []
        if summary.interrupted { lines.append("qlbrowse: interrupted: stopped after \(summary.done) of \(summary.total) files; nothing partial was written") }
        if let reason = summary.stopReason {
            var line = "qlbrowse: stopped (\(TerminalText.escaped(reason))): \(summary.generated) made, \(summary.cached) already cached, "
                + "\(summary.total - summary.done) not done"
            if summary.unlistedFolders > 0 {
                line += "; the walk was cut short: \(summary.unlistedFolders) folder\(summary.unlistedFolders == 1 ? "" : "s") never listed, their files never reached"
            }
            lines.append(line)
        }
        for (folder, reason) in summary.skippedFolders.prefix(20) {
            lines.append("qlbrowse: \(TerminalText.escaped(folder)): not listed: \(TerminalText.escaped(reason))")
        }
        if summary.skippedFolders.count > 20 { lines.append("qlbrowse: … and \(summary.skippedFolders.count - 20) more folders not listed") }
        for (path, reason) in summary.failures.prefix(20) { lines.append("qlbrowse: \(TerminalText.escaped(path)): \(TerminalText.escaped(reason))") }
        if summary.failures.count > 20 { lines.append("qlbrowse: … and \(summary.failures.count - 20) more failures") }
        lines.append("generated \(summary.generated), already cached \(summary.cached), failed \(summary.failed), skipped \(summary.skipped)"
            + (summary.skippedFolders.isEmpty ? "" : ", folders not listed \(summary.skippedFolders.count)")
            + (summary.interrupted || summary.stopReason != nil ? ", not done \(summary.total - summary.done)" : ""))
        StandardStream.write(lines.joined(separator: "\n") + "\n", to: 2)
    }

    private func emit(_ object: [String: any Sendable]) {
        var parts: [String] = []
        for key in object.keys.sorted() {
            let value = object[key]!
            if let number = value as? Int { parts.append("\"\(key)\":\(number)") } else { parts.append("\"\(key)\":\(JSONString.quote(String(describing: value)))") }
        }
        StandardStream.write("{" + parts.joined(separator: ",") + "}\n", to: 1)
    }
}

/// A progress bar that redraws itself on a terminal, or prints a plain line every few seconds.
final class ProgressLine: @unchecked Sendable {
    private let isTerminal: Bool
    private var lastDraw: Double = -1
    private var drewOnTerminal = false

    init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    func update(done: Int, total: Int, elapsed: Duration) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let interval = isTerminal ? 0.1 : 5
        guard seconds - lastDraw >= interval || done == total else { return }
        lastDraw = seconds
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let eta = rate > 0 ? Int(Double(total - done) / rate) : 0
        let etaText = "\(eta / 60):" + (eta % 60 < 10 ? "0" : "") + "\(eta % 60)"
        let tenths = Int((rate * 10).rounded())
        let rateText = "\(tenths / 10).\(tenths % 10)"
        if isTerminal {
            let width = 30
            let filled = total > 0 ? done * width / total : width
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            StandardStream.write("\r\u{1B}[K\(bar) \(done)/\(total)  \(rateText) files/s  ETA \(etaText)", to: 2)
            drewOnTerminal = true
        } else {
            StandardStream.write("qlbrowse: \(done)/\(total) files, \(rateText) files/s, ETA \(etaText)\n", to: 2)
        }
    }

    func finish() {
        if drewOnTerminal { StandardStream.write("\r\u{1B}[K", to: 2) }
    }
}

/// Unbuffered writes to standard output and error (no `FILE *`, which Swift 6 treats as shared state).
enum StandardStream {
    static func write(_ text: String, to fd: Int32) {
        FileDescriptorWriter.writeAll(Array(text.utf8), to: fd)
    }
}

/// JSON string literals, for the hand-built lines of `--json` batch output.
enum JSONString {
    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
