import SystemKit
/// What goes to a `qlbrowse-thumbnailer` worker (from the pool) or to the resident service (from
/// a client): one case per request, each with exactly what it needs. `WorkerCodec` puts it in a
/// frame's JSON header; the request id travels in the frame's head (`WorkerFrame.id`), and the
/// deadline beside the request (`WorkerDeadline`). Every end reads and writes it with that codec.
package enum WorkerRequest: Codable, Sendable, Equatable {
    /// Client → service: the first message on a connection, with the client's build
    /// (`ServiceIdentity`); answered `.hello` by the same build, else `.replaced`.
    case hello(identity: String)
    /// Stop working on the frame's request as soon as possible.
    case cancel
    /// Representations of a file fitting a box (`ThumbnailGenerator`); answered with
    /// `.contentType`, `.image`s, then `.done` or `.failure`.
    case thumbnails(Thumbnails)
    /// One page of a paged document at the box's size; answered `.page`.
    case page(Page)
    /// One video frame near a time; answered `.frame`.
    case frame(VideoFrame)
    /// Duration and streams of an audio or video file, without decoding a picture; answered `.mediaFacts`.
    case mediaFacts(path: String)
    /// The members of an archive, headers only; answered `.members`.
    case members(Members)
    /// Which custom previewer would serve the file, without running it; answered `.previewer`.
    case previewer(path: String)
    /// The output of the custom previewer (`.previewer` file) for the file's exact type; answered `.custom`.
    case custom(Custom)
    /// A part of a picture, enlarged: for zooming into a photo in Quick Look; answered `.region`.
    case region(Region)
    /// A lossless edit written to a new file (`FileEdit`); answered `.edit`.
    case edit(Edit)

    /// A request that reads little and decodes nothing big: the embedded or cached picture of a
    /// file, without its full thumbnail. A pool serves these before the others waiting, so a
    /// screen of files on a slow share shows every tile's preview before the first full decode.
    package var isCheap: Bool {
        if case .thumbnails(let asked) = self { return !asked.types.contains(.thumbnail) }
        return false
    }

    package struct Thumbnails: Codable, Sendable, Equatable {
        package var path: String
        package var box: PixelSize
        /// Sorted, so equal requests encode equally.
        package var types: [RepresentationType]
        /// The type the caller already knows (skips the worker's sniffing), if any.
        package var contentType: ContentType?
        /// False when the caller does not show file facts.
        package var wantsFacts: Bool
        /// An embedded preview that fills the box may be the thumbnail (`ThumbnailRequest.embeddedSuffices`).
        package var embeddedSuffices: Bool

        package init(path: String, box: PixelSize, types: Set<RepresentationType>, contentType: ContentType?, wantsFacts: Bool,
                     embeddedSuffices: Bool = false) {
            self.path = path
            self.box = box
            self.types = types.sorted()
            self.contentType = contentType
            self.wantsFacts = wantsFacts
            self.embeddedSuffices = embeddedSuffices
        }
    }

    package struct Page: Codable, Sendable, Equatable {
        package var path: String
        package var box: PixelSize
        /// From 0; clamped to the document by the worker.
        package var index: Int
    }

    package struct VideoFrame: Codable, Sendable, Equatable {
        package var path: String
        package var box: PixelSize
        /// The time wanted, in seconds from the start.
        package var seconds: Double
    }

    package struct Members: Codable, Sendable, Equatable {
        package var path: String
        /// How many members to list at most.
        package var limit: Int
    }

    package struct Custom: Codable, Sendable, Equatable {
        package var path: String
        package var box: PixelSize
        /// The box in terminal cells, for a text previewer's `%c`/`%r`.
        package var columns: Int
        package var rows: Int
    }

    package struct Region: Codable, Sendable, Equatable {
        package var path: String
        package var box: PixelSize
        /// How far the picture is enlarged over "fits the box" (2 = twice), and the point of it at
        /// the box's centre, as fractions of its width and height.
        package var zoom: Double
        package var centerX: Double
        package var centerY: Double
    }

    package struct Edit: Codable, Sendable, Equatable {
        package var path: String
        package var edit: FileEdit
        /// The new file to write the result to (made by the caller beside the original).
        package var outputPath: String
    }

    /// The file the request is about (nil for `hello` and `cancel`).
    package var path: String? {
        switch self {
        case .hello, .cancel: nil
        case .thumbnails(let request): request.path
        case .page(let request): request.path
        case .frame(let request): request.path
        case .mediaFacts(let path), .previewer(let path): path
        case .members(let request): request.path
        case .custom(let request): request.path
        case .region(let request): request.path
        case .edit(let request): request.path
        }
    }
}

/// When the pool gives up on a request, as it travels beside it in the frame's header.
package struct WorkerDeadline: Codable, Sendable, Equatable {
    /// Client → service: the caller's own deadline in seconds (`--timeout`), which the service's
    /// pool uses instead of its standard one. Nil: the pool's.
    package var seconds: Double?
    /// Pool → worker: when the pool gives up and kills the worker, in CLOCK_MONOTONIC nanoseconds
    /// (one clock for every process on the machine). A previewer is stopped before that, so the
    /// worker answers and lives on.
    package var monotonicNanos: Int64?

    package init(seconds: Double? = nil, monotonicNanos: Int64? = nil) {
        self.seconds = seconds
        self.monotonicNanos = monotonicNanos
    }
}
