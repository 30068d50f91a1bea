/// One message on the pipe between `qlbrowse` and a `qlbrowse-thumbnailer` worker.
///
/// Both directions use the same shape so one codec serves both; unused fields stay nil.
/// An `image` message carries the RGBA pixels as the frame's payload.
package struct WorkerMessage: Codable, Sendable, Equatable {
    package enum Kind: String, Codable, Sendable {
        /// Client → worker: make representations of `path`.
        case request
        /// Client → worker: stop working on request `id` as soon as possible.
        case cancel
        /// Worker → client: the content type of request `id`'s file, sent before any image.
        case contentType
        /// Worker → client: one representation; pixels in the payload.
        case image
        /// Worker → client: request `id` failed for `reason`. Ends the request.
        case failure
        /// Worker → client: request `id` is finished. Ends the request.
        case done
        /// Worker → client: the answer to a preview request (`preview` set): a page or a frame
        /// (RGBA pixels in the payload, `width`×`height`), a member listing (JSON in the payload),
        /// media facts (no payload), or a custom previewer's text or picture (`previewer` set;
        /// nil with no payload when none applies). Ends the request.
        case preview
        /// Client → service, then service → client: the first message on a service connection.
        /// The client's carries its `identity`; the service answers `hello` when it is the same
        /// build, else `failure` with `failureKind` "replaced" and goes away.
        case hello
    }

    package var kind: Kind
    package var id: UInt64
    package var path: String?
    package var maxWidth: Int?
    package var maxHeight: Int?
    package var types: [RepresentationType]?
    package var contentType: String?
    package var representation: RepresentationType?
    package var source: String?
    package var width: Int?
    package var height: Int?
    package var reason: String?
    /// Why a failure happened, for the caller's error (`unsupported`, `encrypted`, `corrupt`, …).
    package var failureKind: String?
    /// With an image: what the decoder learned about the file.
    package var facts: [FileFact]?
    /// With a request: false when the caller does not show file facts.
    package var wantsFacts: Bool?
    /// With a request: which preview is wanted instead of thumbnails (nil: thumbnails).
    package var preview: PreviewKind?
    /// With a page request: the page wanted, from 0; with its reply: the page shown (clamped).
    package var page: Int?
    /// With a frame request: the time wanted, in seconds from the start.
    package var seconds: Double?
    /// With a member listing request: how many members to list at most.
    package var memberLimit: Int?
    /// With a page reply: how many pages the document has.
    package var pageCount: Int?
    /// With a frame or media facts reply: the length in seconds, when the container knows it.
    package var duration: Double?
    /// With a frame reply: the time of the frame shown, in seconds.
    package var shownSeconds: Double?
    /// With a media facts reply: whether there is a moving picture.
    package var hasVideo: Bool?
    /// With a custom preview request: the box in terminal cells, for a text previewer's `%c`/`%r`.
    package var columns: Int?
    package var rows: Int?
    /// With any request, set by the pool as it hands it to a worker: when the pool gives up on it
    /// and kills the worker, in CLOCK_MONOTONIC nanoseconds (one clock for every process on the
    /// machine). A previewer is stopped before that, so the worker answers and lives on.
    package var deadlineNanos: Int64?
    /// With a custom preview or previewer reply: the previewer that applies (nil: none).
    package var previewer: PreviewerInfo?
    /// With a region request: how far the picture is enlarged over "fits the box" (2 = twice),
    /// and the point of it at the box's centre, as fractions of its width and height.
    package var zoom: Double?
    package var centerX: Double?
    package var centerY: Double?
    /// With a region reply: the whole picture's size at that zoom, in pixels.
    package var fullWidth: Int?
    package var fullHeight: Int?
    /// With a custom text reply: the previewer printed more than the limit and was stopped.
    package var truncated: Bool?
    /// With a hello: the build and settings of the sender (`ServiceIdentity`).
    package var identity: String?
    /// With a request sent to a service: the caller's own deadline in seconds (`--timeout`),
    /// which the service's pool uses instead of its standard one.
    package var deadlineSeconds: Double?

    /// An edit request (`preview == .edit`): what to do, and the new file to write it to.
    package var edit: FileEdit?
    package var outputPath: String?

    package init(kind: Kind, id: UInt64) {
        self.kind = kind
        self.id = id
    }
}
