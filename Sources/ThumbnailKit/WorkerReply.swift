import SystemKit
/// The one translation between worker frames and `WorkerEvent`s, both ways: the pool reads its
/// workers' replies with it, the service turns its pool's events back into frames with it, and
/// the service's client reads those frames with it again.
package enum WorkerReply {
    /// What one frame means for the request it names.
    package enum Meaning: Sendable {
        /// An event; more follow.
        case event(WorkerEvent)
        /// The answer to a preview request: the last event.
        case last(WorkerEvent)
        /// The request is over: nil when it succeeded, else why it failed.
        case end(ThumbnailError?)
        /// Not a reply (a request, a cancel, a hello).
        case none
    }

    package static func meaning(of message: WorkerMessage, payload: [UInt8]) -> Meaning {
        switch message.kind {
        case .contentType:
            return message.contentType.map { .event(.contentType(ContentType($0))) } ?? .none
        case .image:
            guard let width = message.width, let height = message.height, let type = message.representation,
                  width > 0, height > 0, payload.count == width * height * 4 else {
                return .end(ThumbnailError(.crashed, "the worker sent a malformed image"))
            }
            let image = PixelImage(width: width, height: height, pixels: payload)
            return .event(.image(type, image, source: message.source ?? "worker", facts: message.facts ?? []))
        case .failure:
            let code = message.failureKind.flatMap(ThumbnailError.Code.init(rawValue:)) ?? .corrupt
            return .end(ThumbnailError(code, message.reason ?? "unknown error", contentType: message.contentType.map(ContentType.init)))
        case .done:
            return .end(nil)
        case .preview:
            return .last(.preview(PreviewReply(message: message, payload: payload)))
        case .request, .cancel, .hello:
            return .none
        }
    }

    /// The frame that carries `event` for request `id`.
    package static func frame(for event: WorkerEvent, id: UInt64) -> [UInt8] {
        var message = WorkerMessage(kind: .contentType, id: id)
        switch event {
        case .contentType(let type):
            message.contentType = type.identifier
            return FrameCodec.encode(message)
        case .image(let type, let image, let source, let facts):
            message.kind = .image
            message.representation = type
            message.width = image.width
            message.height = image.height
            message.source = source
            message.facts = facts.isEmpty ? nil : facts
            return FrameCodec.encode(message, payload: image.pixels)
        case .preview(let reply):
            message = reply.message
            message.id = id
            return FrameCodec.encode(message, payload: reply.payload)
        }
    }

    /// The frame that ends request `id`: `done`, or a `failure` saying why (a cancellation too).
    package static func endFrame(id: UInt64, error: Error?) -> [UInt8] {
        guard let error else { return FrameCodec.encode(WorkerMessage(kind: .done, id: id)) }
        let failure = error as? ThumbnailError ?? ThumbnailError(error is CancellationError ? .cancelled : .crashed, "\(error)")
        var message = WorkerMessage(kind: .failure, id: id)
        message.failureKind = failure.code.rawValue
        message.reason = failure.reason
        message.contentType = failure.contentType?.identifier
        return FrameCodec.encode(message)
    }
}
