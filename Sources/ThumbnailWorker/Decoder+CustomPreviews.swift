import Providers
import SystemKit
import ThumbnailKit

/// Custom previewer requests (`PreviewKind.custom`, `.previewer`): the file's type is sniffed here,
/// in the worker, like any other content, and the `.previewer` for exactly that type is named or run.
extension Decoder {
    /// Sets `answer.previewer` (nil when no previewer serves the type) and, for `.custom`, runs it:
    /// text in the payload (`truncated` when it was cut), or a picture as for pages.
    func customPreview(_ kind: PreviewKind, of path: String, request: WorkerMessage, box: PixelSize, into answer: inout WorkerMessage,
                       cancellation: CancellationFlag) throws(ThumbnailError) -> [UInt8] {
        let type = sniffer.contentType(ofFile: path)
        answer.contentType = type.identifier
        guard let runner = previewers.runner(for: type) else { return [] }
        answer.previewer = runner.previewer.info(for: type.identifier)
        guard kind == .custom else { return [] }
        guard box.width > 0, box.height > 0 else { throw ThumbnailError(.unsupported, "malformed request") }
        let preview = try runner.preview(path: path, type: type, box: box, columns: request.columns ?? 80, rows: request.rows ?? 24,
                                         deadline: Self.commandSeconds(request), cancellation: cancellation)
        switch preview.content {
        case .text(let bytes):
            answer.truncated = preview.truncated
            return bytes
        case .image(let image):
            return Self.attach(image, to: &answer)
        }
    }

    /// How long the previewer may run: until half a second before the pool gives up on the request
    /// (time to kill it and answer), and never longer than an external thumbnailer (10 s).
    static func commandSeconds(_ request: WorkerMessage) -> Double {
        guard let deadline = request.deadlineNanos else { return 10 }
        return min(10, max(0.1, Double(deadline - SystemTime.now()) / 1e9 - 0.5))
    }
}
