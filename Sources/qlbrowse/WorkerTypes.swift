import SystemKit
import ThumbnailKit

/// What the worker says it reads (`qlbrowse-thumbnailer --list-types`), for `qlbrowse types` and
/// `qlbrowse dbus`'s GetSupported.
struct WorkerTypes {
    /// Thumbnail rows: type, provider, where it comes from.
    let thumbnailers: [[String]]
    /// Previewer rows: type, previewer, where it comes from, its output, override or fallback.
    let previewers: [[String]]

    /// Asks the worker; nil when it cannot be run.
    static func read(worker: String = WorkerPool.defaultExecutable()) -> WorkerTypes? {
        guard let output = ProcessOutput.run([worker, "--list-types"]) else { return nil }
        let rows = String(decoding: output, as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        return WorkerTypes(thumbnailers: rows.filter { $0.count == 3 }, previewers: rows.filter { $0.count == 5 })
    }
}
