import Dispatch
import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Timestamps of the remote protocol's traffic, for finding where the time of a remote folder
/// goes: with `QLBROWSE_TRACE` set, one line per request sent and answer received (the browser)
/// or request received and answer sent (`qlbrowse serve`), with the monotonic clock's
/// milliseconds, so that both sides' lines on one machine sort together. `QLBROWSE_TRACE=/path`
/// appends to that file (the remote's standard error is ssh's, which nobody reads); any other
/// value writes to standard error (the browser's log file while it runs). Unset: nothing is done.
package enum RemoteTrace {
    /// Where lines go, or nil when tracing is off.
    private static let output: Int32? = {
        guard let value = ProcessEnvironment.variable("QLBROWSE_TRACE") else { return nil }
        guard value.hasPrefix("/") else { return 2 }
        let fd = open(value, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        return fd >= 0 ? fd : nil
    }()

    /// Whether lines are written (to skip building them).
    package static var isOn: Bool { output != nil }

    /// Writes "remote <milliseconds> <side> <event>" when tracing is on.
    package static func note(_ side: String, _ event: @autoclosure () -> String) {
        guard let fd = output else { return }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds) / 1e6
        let line = "remote \(Int(milliseconds)).\(Int(milliseconds * 10) % 10) \(side) \(event())\n"
        FileDescriptorWriter.writeAll(Array(line.utf8), to: fd)
    }

    /// A request's kind and what it names, short.
    package static func describe(_ request: RemoteRequest) -> String {
        switch request {
        case .thumbnail(let asked): "thumbnail \(asked.path) box \(Int(asked.box))"
        case .list(let path): "list \(path)"
        case .read(let read): "read \(read.path) \(read.offset)+\(read.length)"
        default: String("\(request)".prefix(60))
        }
    }

    /// An answer's kind, short.
    package static func describe(_ answer: RemoteAnswer) -> String {
        switch answer {
        case .thumbnail(let picture): "thumbnail \(picture.type) \(picture.source)"
        case .entries(let complete): complete ? "entries (last)" : "entries"
        case .failure(let failure): "failure \(failure.context ?? "")"
        default: String("\(answer)".prefix(40))
        }
    }
}
