#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Editors
import Providers
import ThumbnailKit

/// Preview requests (every `WorkerRequest` but thumbnails): a page, a frame, media facts, a
/// member listing, a region, an edit or a custom previewer's output, answered with the one
/// `WorkerAnswer` of the same name, or a `.failure` as for thumbnails.
extension Decoder {
    func answerPreview(_ request: WorkerRequest, id: UInt64, deadline: WorkerDeadline, cancellation: CancellationFlag) {
        guard let path = request.path else {
            return reply(failure(id, ThumbnailError(.unsupported, "malformed request"), contentType: nil))
        }
        do {
            let (answer, payload) = try preview(request, of: path, deadline: deadline, cancellation: cancellation)
            try cancellation.check()
            reply(WorkerCodec.frame(answer, id: id, payload: payload))
        } catch {
            let reason = error.code == .cancelled ? error : Self.blameTheVolume(error, path: path) ?? error
            reply(failure(id, reason, contentType: nil, path: path))
        }
    }

    /// The answer and its payload (pixels, text or JSON).
    private func preview(_ request: WorkerRequest, of path: String, deadline: WorkerDeadline,
                         cancellation: CancellationFlag) throws(ThumbnailError) -> (WorkerAnswer, [UInt8]) {
        switch request {
        case .page(let page):
            try Self.check(page.box)
            let document = try PDFDocument(path: path)
            let index = min(max(0, page.index), document.pageCount - 1)
            let (image, points) = try document.render(page: index, in: page.box, cancellation: cancellation)
            return (.page(.init(size: image.size, index: index, pageCount: document.pageCount, points: points)), image.pixels)
        case .frame(let frame):
            try Self.check(frame.box)
            let shown = try frames.frame(path: path, seconds: frame.seconds, box: frame.box, cancellation: cancellation)
            return (.frame(.init(size: shown.image.size, shownSeconds: shown.shownSeconds, duration: shown.duration)), shown.image.pixels)
        case .mediaFacts:
            return (.mediaFacts(try VideoFrameSeeker.mediaFacts(path: path)), [])
        case .members(let members):
            let listing = try ArchiveLister().list(path: path, limit: members.limit, cancellation: cancellation)
            guard let json = try? JSONEncoder().encode(listing), json.count <= FrameCodec.maximumPayload else {
                throw ThumbnailError(.tooLarge, "the member listing is too large to send")
            }
            return (.members, [UInt8](json))
        case .region(let region):
            try Self.check(region.box)
            let box = region.box
            // The whole picture at the zoom, no larger than 8192 px on its long side (about 1:1
            // for a 50-megapixel photo on a large screen), decoded with shrink-on-load; a picture
            // smaller than that is enlarged, as zooming means.
            let zoom = min(max(1, region.zoom), 8192 / Double(max(box.width, box.height)))
            let full = try VipsDecoder.fitted(path: path, box: PixelSize(width: Int(Double(box.width) * zoom), height: Int(Double(box.height) * zoom)),
                                              cancellation: cancellation)
            try cancellation.check()
            let part = full.cropped(to: box, around: (region.centerX, region.centerY))
            return (.region(.init(size: part.size, fullSize: full.size)), part.pixels)
        case .edit(let edit):
            return (.edit(try FileEditor.edit(edit.edit, input: path, output: edit.outputPath, cancellation: cancellation)), [])
        case .custom(let custom):
            return try customPreview(custom, of: path, deadline: deadline, cancellation: cancellation)
        case .previewer:
            return (.previewer(previewer(of: path)), [])
        case .thumbnails, .hello, .cancel:
            throw ThumbnailError(.unsupported, "malformed request")
        }
    }

    private static func check(_ box: PixelSize) throws(ThumbnailError) {
        guard box.width > 0, box.height > 0 else { throw ThumbnailError(.unsupported, "malformed request") }
    }
}
