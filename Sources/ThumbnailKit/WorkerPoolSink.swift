/// Where the pool delivers one request's answers: as `WorkerEvent`s (the generators) or as the
/// worker's frames (the service, which passes them on unchanged but for the id).
enum WorkerPoolSink: Sendable {
    case events(AsyncThrowingStream<WorkerEvent, Error>.Continuation)
    case replies(AsyncThrowingStream<WorkerReply, Error>.Continuation)

    /// The request is over: `error` nil when it succeeded.
    struct End {
        let error: ThumbnailError?
    }

    /// Hands on one answer; returns `End` when it ends the request (the caller then finishes it).
    func deliver(_ reply: WorkerReply) -> End? {
        switch self {
        case .replies(let continuation):
            continuation.yield(reply)
            return reply.answer.endsRequest ? End(error: nil) : nil
        case .events(let continuation):
            switch WorkerEvent.meaning(of: reply.answer, payload: reply.frame.payload) {
            case .event(let event):
                continuation.yield(event)
                return nil
            case .last(let event):
                continuation.yield(event)
                return End(error: nil)
            case .end(let error):
                return End(error: error)
            case .none:
                return nil
            }
        }
    }

    func finish(throwing error: Error?) {
        switch self {
        case .events(let continuation): continuation.finish(throwing: error)
        case .replies(let continuation): continuation.finish(throwing: error)
        }
    }
}
