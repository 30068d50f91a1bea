import SystemKit
/// What comes back from a worker (to the pool) or from the service (to a client): one case per
/// answer, each with exactly what it carries. Pixels, text and listings travel as the frame's
/// binary payload, beside the case that says what they are. `WorkerCodec` reads and writes it.
package enum WorkerAnswer: Codable, Sendable, Equatable {
    /// Service → client: the same build; the connection is open.
    case hello(identity: String)
    /// Service → client: the service is another build and is going away.
    case replaced(reason: String)
    /// The content type of the request's file, sent before any image.
    case contentType(ContentType)
    /// One representation; RGBA pixels in the payload.
    case image(Picture)
    /// A page (RGBA pixels in the payload). Ends the request, as every preview answer does.
    case page(Page)
    /// A video frame (RGBA pixels in the payload).
    case frame(VideoFrame)
    /// Media facts (no payload).
    case mediaFacts(MediaFacts)
    /// A member listing: `ArchiveListing` as JSON in the payload (it may be larger than a header).
    case members
    /// The custom previewer that would serve the file, nil when none does.
    case previewer(PreviewerInfo?)
    /// A custom previewer's output (text or RGBA pixels in the payload); nil with no payload
    /// when no previewer serves the file.
    case custom(Custom?)
    /// A part of a picture, enlarged (RGBA pixels in the payload).
    case region(Region)
    /// What an edit did.
    case edit(FileEditResult)
    /// The request is finished.
    case done
    /// The request failed. Ends the request.
    case failure(Failure)

    package struct Picture: Codable, Sendable, Equatable {
        package var type: RepresentationType
        package var size: PixelSize
        /// What made it (`vips`, `exif`, `cache`…).
        package var source: String
        /// What the decoder learned about the file.
        package var facts: [FileFact]

        package init(type: RepresentationType, size: PixelSize, source: String, facts: [FileFact]) {
            self.type = type
            self.size = size
            self.source = source
            self.facts = facts
        }
    }

    package struct Page: Codable, Sendable, Equatable {
        package var size: PixelSize
        /// The page shown (the one asked for, clamped), from 0, and how many there are.
        package var index: Int
        package var pageCount: Int
        /// The page's size in points as shown (crop box, /Rotate applied), rounded: what
        /// Markup's marks are measured in.
        package var points: PixelSize?

        package init(size: PixelSize, index: Int, pageCount: Int, points: PixelSize? = nil) {
            self.size = size
            self.index = index
            self.pageCount = pageCount
            self.points = points
        }
    }

    package struct VideoFrame: Codable, Sendable, Equatable {
        package var size: PixelSize
        /// The time of the frame shown, and the length when the container knows it, in seconds.
        package var shownSeconds: Double
        package var duration: Double?

        package init(size: PixelSize, shownSeconds: Double, duration: Double?) {
            self.size = size
            self.shownSeconds = shownSeconds
            self.duration = duration
        }
    }

    package struct Custom: Codable, Sendable, Equatable {
        package var previewer: PreviewerInfo
        /// The picture's size when the previewer made one; nil: text in the payload.
        package var size: PixelSize?
        /// The previewer printed more than the limit and was stopped.
        package var truncated: Bool

        package init(previewer: PreviewerInfo, size: PixelSize?, truncated: Bool) {
            self.previewer = previewer
            self.size = size
            self.truncated = truncated
        }
    }

    package struct Region: Codable, Sendable, Equatable {
        package var size: PixelSize
        /// The whole picture's size at the zoom asked for.
        package var fullSize: PixelSize

        package init(size: PixelSize, fullSize: PixelSize) {
            self.size = size
            self.fullSize = fullSize
        }
    }

    /// A `ThumbnailError` as it travels.
    package struct Failure: Codable, Sendable, Equatable {
        package var code: ThumbnailError.Code
        package var reason: String
        /// The content type known when it failed, if any.
        package var contentType: ContentType?

        package init(_ error: ThumbnailError) {
            code = error.code
            reason = error.reason
            contentType = error.contentType
        }

        package var error: ThumbnailError { ThumbnailError(code, reason, contentType: contentType) }
    }

    /// Whether this answer is the last one for its request: a preview answer, `done` or `failure`.
    package var endsRequest: Bool {
        switch self {
        case .hello, .replaced, .contentType, .image: false
        case .page, .frame, .mediaFacts, .members, .previewer, .custom, .region, .edit, .done, .failure: true
        }
    }
}
