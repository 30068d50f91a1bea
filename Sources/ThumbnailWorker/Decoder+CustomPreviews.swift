import Providers
import SystemKit
import ThumbnailKit

/// Custom previewer requests (`WorkerRequest.custom`, `.previewer`): the file's type is sniffed
/// here, in the worker, like any other content, and the `.previewer` for exactly that type is
/// named or run.
extension Decoder {
    /// The previewer that serves the file's type, nil when none does.
    func previewer(of path: String) -> PreviewerInfo? {
        let type = sniffer.contentType(ofFile: path)
        return previewers.runner(for: type)?.previewer.info(for: type.identifier)
    }

    /// Runs the previewer that serves the file's type: text in the payload (`truncated` when it
    /// was cut), or a picture as for pages; nil with no payload when no previewer serves it.
    func customPreview(_ request: WorkerRequest.Custom, of path: String, deadline: WorkerDeadline,
                       cancellation: CancellationFlag) throws(ThumbnailError) -> (WorkerAnswer, [UInt8]) {
        let type = sniffer.contentType(ofFile: path)
        guard let runner = previewers.runner(for: type) else { return (.custom(nil), []) }
        let info = runner.previewer.info(for: type.identifier)
        guard request.box.width > 0, request.box.height > 0 else { throw ThumbnailError(.unsupported, "malformed request") }
        let preview = try runner.preview(path: path, type: type, box: request.box, columns: request.columns, rows: request.rows,
                                         deadline: Self.commandSeconds(deadline), cancellation: cancellation)
        switch preview.content {
        case .text(let bytes):
            return (.custom(.init(previewer: info, size: nil, truncated: preview.truncated)), bytes)
        case .image(let image):
            return (.custom(.init(previewer: info, size: image.size, truncated: false)), image.pixels)
        }
    }

    /// How long the previewer may run: until half a second before the pool gives up on the request
    /// (time to kill it and answer), and never longer than an external thumbnailer (10 s).
    static func commandSeconds(_ deadline: WorkerDeadline) -> Double {
        guard let nanos = deadline.monotonicNanos else { return 10 }
        return min(10, max(0.1, Double(nanos - SystemTime.now()) / 1e9 - 0.5))
    }
}
