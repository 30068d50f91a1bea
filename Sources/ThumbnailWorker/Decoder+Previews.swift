#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Editors
import Providers
import ThumbnailKit

/// Preview requests (`WorkerMessage.preview`): a page, a frame, media facts, a member listing or a
/// custom previewer's output, answered with one `.preview` message, or a `.failure` as for thumbnails.
extension Decoder {
    func answerPreview(_ kind: PreviewKind, to request: WorkerMessage, cancellation: CancellationFlag) {
        guard let path = request.path else {
            return reply(failure(request.id, ThumbnailError(.unsupported, "malformed request"), contentType: nil))
        }
        do {
            var answer = WorkerMessage(kind: .preview, id: request.id)
            answer.preview = kind
            let payload = try preview(kind, of: path, request: request, into: &answer, cancellation: cancellation)
            try cancellation.check()
            reply(FrameCodec.encode(answer, payload: payload))
        } catch {
            let reason = error.code == .cancelled ? error : Self.blameTheVolume(error, path: path) ?? error
            reply(failure(request.id, reason, contentType: nil, path: path))
        }
    }

    /// Fills the answer's fields and returns its payload (pixels or JSON).
    private func preview(_ kind: PreviewKind, of path: String, request: WorkerMessage, into answer: inout WorkerMessage,
                         cancellation: CancellationFlag) throws(ThumbnailError) -> [UInt8] {
        let box = PixelSize(width: request.maxWidth ?? 0, height: request.maxHeight ?? 0)
        switch kind {
        case .page:
            guard box.width > 0, box.height > 0 else { throw ThumbnailError(.unsupported, "malformed request") }
            let document = try PDFDocument(path: path)
            let index = min(max(0, request.page ?? 0), document.pageCount - 1)
            let image = try document.render(page: index, in: box, cancellation: cancellation).image
            answer.page = index
            answer.pageCount = document.pageCount
            return Self.attach(image, to: &answer)
        case .frame:
            guard box.width > 0, box.height > 0 else { throw ThumbnailError(.unsupported, "malformed request") }
            let shown = try frames.frame(path: path, seconds: request.seconds ?? 0, box: box, cancellation: cancellation)
            answer.shownSeconds = shown.shownSeconds
            answer.duration = shown.duration
            return Self.attach(shown.image, to: &answer)
        case .mediaFacts:
            let facts = try VideoFrameSeeker.mediaFacts(path: path)
            answer.duration = facts.duration
            answer.hasVideo = facts.hasVideo
            return []
        case .members:
            let listing = try ArchiveLister().list(path: path, limit: request.memberLimit ?? 10_000, cancellation: cancellation)
            guard let json = try? JSONEncoder().encode(listing), json.count <= FrameCodec.maximumPayload else {
                throw ThumbnailError(.tooLarge, "the member listing is too large to send")
            }
            return [UInt8](json)
        case .region:
            guard box.width > 0, box.height > 0 else { throw ThumbnailError(.unsupported, "malformed request") }
            // The whole picture at the zoom, no larger than 8192 px on its long side (about 1:1
            // for a 50-megapixel photo on a large screen), decoded with shrink-on-load; a picture
            // smaller than that is enlarged, as zooming means.
            let zoom = min(max(1, request.zoom ?? 1), 8192 / Double(max(box.width, box.height)))
            let full = try VipsDecoder.fitted(path: path, box: PixelSize(width: Int(Double(box.width) * zoom), height: Int(Double(box.height) * zoom)),
                                              cancellation: cancellation)
            try cancellation.check()
            answer.fullWidth = full.width
            answer.fullHeight = full.height
            return Self.attach(full.cropped(to: box, around: (request.centerX ?? 0.5, request.centerY ?? 0.5)), to: &answer)
        case .edit:
            guard let edit = request.edit, let output = request.outputPath else { throw ThumbnailError(.unsupported, "malformed request") }
            let result = try FileEditor.edit(edit, input: path, output: output, cancellation: cancellation)
            guard let json = try? JSONEncoder().encode(result) else { throw ThumbnailError(.crashed, "cannot encode the result") }
            return [UInt8](json)
        case .custom, .previewer:
            return try customPreview(kind, of: path, request: request, box: box, into: &answer, cancellation: cancellation)
        }
    }

    static func attach(_ image: PixelImage, to answer: inout WorkerMessage) -> [UInt8] {
        answer.width = image.width
        answer.height = image.height
        return image.pixels
    }
}
