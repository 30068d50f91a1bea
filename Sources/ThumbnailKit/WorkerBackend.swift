import SystemKit
/// Where the engine's worker requests go: a `WorkerPool` of this process's own workers, or a
/// `ServiceClient` that hands them to the resident per-user service's warm pool. The generators
/// and every front end (`thumbnail`, `preview`, the browser) take either.
package protocol WorkerBackend: Sendable {
    /// Sends a request (its id is assigned by the backend) under the worker deadline, limits and
    /// cancellation; the stream ends after the last event or throws a `ThumbnailError`, and
    /// ending the iteration early cancels the work.
    func submit(_ request: WorkerRequest) -> AsyncThrowingStream<WorkerEvent, Error>

    /// Stops what this process started (workers, connections), waiting up to `waitSeconds` for
    /// its workers to be reaped, so a one-shot command leaves no process behind.
    func shutdown(waitSeconds: Double) async

    /// Gets ready for requests soon to come (starts the resident service or a worker), so that
    /// starting overlaps the caller's own; a request made meanwhile waits for it as usual.
    func prepare() async
}

extension WorkerBackend {
    /// Nothing to get ready by default.
    package func prepare() async {}

    /// Asks for representations of `path` fitting `box`; see `submit`.
    func run(path: String, box: PixelSize, types: Set<RepresentationType>, contentType: ContentType?,
             wantsFacts: Bool = true, embeddedSuffices: Bool = false) -> AsyncThrowingStream<WorkerEvent, Error> {
        submit(.thumbnails(.init(path: path, box: box, types: types, contentType: contentType, wantsFacts: wantsFacts,
                                 embeddedSuffices: embeddedSuffices)))
    }
}
