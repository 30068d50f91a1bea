import SystemKit
import ThumbnailKit

/// The workers of a remote place, as a `PreviewGenerator` sees them: each preview request goes
/// over the link (`RemoteRequest.preview`) to the remote's own workers, under the thumbnails'
/// deadline; ending the iteration (the caller's task cancelled) cancels it there.
struct RemotePreviewWorkers: WorkerBackend {
    let place: RemotePlace

    func submit(_ request: WorkerRequest) -> AsyncThrowingStream<WorkerEvent, Error> {
        let (stream, continuation) = AsyncThrowingStream<WorkerEvent, Error>.makeStream()
        let place = self.place
        let task = Task {
            let answer: (RemoteAnswer, [UInt8])
            do throws(FileSystemError) {
                answer = try await place.call(.preview(request), deadline: place.thumbnailDeadline, keepsFailure: true)
            } catch {
                continuation.finish(throwing: error.code == .cancelled ? CancellationError() as Error
                                        : ThumbnailError(error.code == .notResponding ? .timedOut : .unreadable, error.message))
                return
            }
            switch answer.0 {
            case .preview(let reply, let png):
                guard let payload = RemotePreviewPicture.unpack(reply, answer.1, png: png) else {
                    continuation.finish(throwing: ThumbnailError(.corrupt, "\(TerminalText.escaped(place.name)) sent a picture this qlbrowse cannot read"))
                    return
                }
                continuation.yield(.preview(PreviewReply(answer: reply, payload: payload)))
                continuation.finish()
            case .failure(let failure):
                continuation.finish(throwing: failure.thumbnailCode == .cancelled ? CancellationError() as Error : failure.thumbnailError)
            default:
                continuation.finish(throwing: ThumbnailError(.crashed, "\(TerminalText.escaped(place.name)) answered something else than was asked"))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Nothing of this process to stop: the remote's workers end with its `qlbrowse serve`.
    func shutdown(waitSeconds: Double) async {}
}
