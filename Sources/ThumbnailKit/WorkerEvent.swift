import SystemKit
/// What a worker reports about one request, as the pool hands it to the generator.
public enum WorkerEvent: Sendable {
    /// The content type the worker sniffed from the file's bytes.
    case contentType(ContentType)
    /// A picture of the file.
    case image(RepresentationType, PixelImage, source: String, facts: [FileFact])
    /// The answer to a preview request (a page, a frame, a member listing), for `PreviewGenerator`.
    case preview(PreviewReply)

    /// What an answer means for the request it belongs to.
    package enum Meaning: Sendable {
        /// An event; more follow.
        case event(WorkerEvent)
        /// The answer to a preview request: the last event.
        case last(WorkerEvent)
        /// The request is over: nil when it succeeded, else why it failed.
        case end(ThumbnailError?)
        /// Not an answer to a request (a hello).
        case none
    }

    /// The one translation from answers to events, used by the pool and the service's client.
    /// An image whose payload does not match its size ends the request as a crash.
    package static func meaning(of answer: WorkerAnswer, payload: [UInt8]) -> Meaning {
        switch answer {
        case .contentType(let type):
            return .event(.contentType(type))
        case .image(let picture):
            guard let image = PixelImage(picture.size, payload) else {
                return .end(ThumbnailError(.crashed, "the worker sent a malformed image"))
            }
            return .event(.image(picture.type, image, source: picture.source, facts: picture.facts))
        case .failure(let failure):
            return .end(failure.error)
        case .done:
            return .end(nil)
        case .hello, .replaced:
            return .none
        case .page, .frame, .mediaFacts, .members, .previewer, .custom, .region, .edit:
            return .last(.preview(PreviewReply(answer: answer, payload: payload)))
        }
    }
}

/// A worker's answer to a preview request, as it came over the pipe; `PreviewGenerator` reads it.
public struct PreviewReply: Sendable {
    package let answer: WorkerAnswer
    package let payload: [UInt8]

    package init(answer: WorkerAnswer, payload: [UInt8]) {
        self.answer = answer
        self.payload = payload
    }
}

extension PixelImage {
    /// RGBA `pixels` of `size`, or nil when they do not match it (a malformed answer).
    init?(_ size: PixelSize, _ pixels: [UInt8]) {
        guard size.width > 0, size.height > 0, pixels.count == size.width * size.height * 4 else { return nil }
        self.init(width: size.width, height: size.height, pixels: pixels)
    }
}
