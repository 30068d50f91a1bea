import ThumbnailKit

/// The per-content states of `QuickLookPosition`, each with only the fields its content has.
extension QuickLookPosition {
    /// A photo, a folder's or a document's picture: enlarged (1 fits the screen; 2, 4, 8, 16
    /// times that) with the point of it at the screen's centre (fractions of its width and height).
    public struct Picture: Sendable, Equatable {
        public var zoom = 1
        public var centerX = 0.5
        public var centerY = 0.5
        /// A Motion Photo's movie length, once the worker found one inside the picture.
        public var motionLength: Double?
        /// A custom previewer's picture stands for the file.
        public var custom = false
        /// The edit under way (`e`), shown on the picture until it is saved or left.
        public var edit: QuickEdit?
        /// The picture's size as shown (EXIF orientation applied), once its facts came.
        public var size: PixelSize?
        public init() {}
    }

    /// A document's pages: the page shown (0-based), and how many once the document says.
    public struct Pages: Sendable, Equatable {
        public var page = 0
        public var pageCount: Int?
        /// Digits typed before Enter: a page to jump to.
        public var jump = ""
        public var edit: QuickEdit?
        /// Pages' sizes in points as shown (crop box, /Rotate applied), as their pictures came.
        public var pagePoints: [Int: PixelSize] = [:]
        public init() {}
    }

    /// A text's lines: the first shown (0-based), how many once known, wrapped or cut.
    public struct Text: Sendable, Equatable {
        public var line = 0
        public var lineCount: Int?
        public var jump = ""
        public var wraps = true
        /// A custom previewer's text stands for the file.
        public var custom = false
        public init(custom: Bool = false) { self.custom = custom }
    }

    /// An archive's (or a container document's) members: the first row shown, how many rows.
    public struct Members: Sendable, Equatable {
        public var line = 0
        public var lineCount: Int?
        public var jump = ""
        public init() {}
    }

    /// A video, a song, an animation or a Live Photo's movie: the time shown, the length once
    /// known, playing or not.
    public struct Timeline: Sendable, Equatable {
        public var seconds = 0.0
        public var duration: Double?
        public var jump = ""
        /// Playing (`p`); the clock moves `seconds` on.
        public var playing = false
        /// Loops at its end (animations) rather than stopping.
        public var loops = false
        /// Counts seeks, so that a sound playing is started again from the new place.
        public var seekGeneration = 0
        /// A Live Photo's or a Motion Photo's movie plays instead of its still; a Motion Photo's
        /// movie length as the still had it.
        public var motion = false
        public var motionLength: Double?
        /// A PNG or WebP the worker found animated: it plays like a GIF.
        public var animates = false
        public var edit: QuickEdit?
        public init() {}

        /// A time step: `coarse` for PgDn/PgUp (a tenth, 30 s at least), 5 s for ↓/↑.
        func timeStep(coarse: Bool) -> Double { coarse ? max(30, (duration ?? 0) / 10) : 5 }
    }
}
