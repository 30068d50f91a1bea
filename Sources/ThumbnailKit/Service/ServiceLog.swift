import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Lines about the service, stamped with the time: the service writes them to its standard error
/// (the log its client opened for it), a client appends them to that log.
package enum ServiceLog {
    /// Appends one line to `path` (nil: standard error).
    package static func line(_ text: String, to path: String? = nil) {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
        let stamp = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bytes = Array("\(stamp) qlbrowse service: \(TerminalText.escaped(text))\n".utf8)
        guard let path else {
            FileDescriptorWriter.writeAll(bytes, to: 2)
            return
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        FileDescriptorWriter.writeAll(bytes, to: fd)
        close(fd)
    }
}
