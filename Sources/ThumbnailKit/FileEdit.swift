import SystemKit
/// A lossless edit of a file (Quick Look's quick edits, `qlbrowse edit`), done by a worker into a
/// new file in the same folder: the original is replaced or kept by the caller, never half-written.
public enum FileEdit: Codable, Sendable, Equatable {
    /// Turns a picture by quarter turns clockwise (1 right, 2 half, 3 left), mirrored left to
    /// right first when `flip`. JPEG in the DCT domain; other formats re-encoded without loss.
    case rotate(quarterTurns: Int, flip: Bool)
    /// Turns PDF pages (0-based; empty means all) by quarter turns clockwise, by their /Rotate entry.
    case rotatePages(pages: [Int], quarterTurns: Int)
    /// Keeps a video or song from `start` to `end` seconds, streams copied (no re-encoding).
    case trim(start: Double, end: Double)
    /// Turns a video by quarter turns clockwise in its display matrix (no re-encoding).
    case rotateVideo(quarterTurns: Int)
    /// Keeps `rect` of a picture, in pixels of the picture as shown (EXIF orientation applied).
    /// JPEG in the DCT domain (left and top snap to its block grid); PNG, TIFF, WebP re-encoded
    /// without loss; HEIC and AVIF only with `allowLossy`, as they cannot be written again without loss.
    case crop(PixelRect, allowLossy: Bool)
    /// Markup: real annotations added to a PDF's pages (nothing rendered), or the marks drawn
    /// into a picture at its full size (re-encoded: a JPEG at its own quality, so not lossless).
    case annotate(marks: [Mark])

    /// The command-line and JSON name of the edit.
    public var name: String {
        switch self {
        case .rotate: "rotate"
        case .rotatePages: "rotate-pages"
        case .trim: "trim"
        case .rotateVideo: "rotate-video"
        case .crop: "crop"
        case .annotate: "annotate"
        }
    }
}

/// What an edit did, for the person who asked: where a trim really starts, what a JPEG rotation
/// had to drop, how many pages turned.
public struct FileEditResult: Codable, Sendable, Equatable {
    /// Sentences worth showing ("starts at 0:08.3, the nearest keyframe").
    public var notes: [String]
    /// A trim's real start and end in the source, in seconds.
    public var start: Double?
    public var end: Double?
    /// The picture's size after the edit.
    public var width: Int?
    public var height: Int?
    /// Pages turned.
    public var pages: Int?
    /// A crop's rectangle as kept, in the picture as shown (a JPEG's snaps to its block grid).
    public var rect: PixelRect?
    /// Marks written (annotations added to a PDF, shapes drawn into a picture).
    public var marks: Int?

    /// How edit results write a time: minutes, seconds and tenths ("0:08.3"), as a trim point
    /// is precise to a frame, not to a second.
    public static func clock(_ seconds: Double) -> String {
        let tenths = Int(saturating: (max(0, seconds) * 10).rounded())
        let minutes = tenths / 600, rest = tenths % 600
        return "\(minutes):" + (rest < 100 ? "0" : "") + "\(rest / 10).\(rest % 10)"
    }

    public init(notes: [String] = [], start: Double? = nil, end: Double? = nil, width: Int? = nil, height: Int? = nil, pages: Int? = nil,
                marks: Int? = nil, rect: PixelRect? = nil) {
        self.rect = rect
        self.notes = notes
        self.start = start
        self.end = end
        self.width = width
        self.height = height
        self.pages = pages
        self.marks = marks
    }
}
