import Synchronization
import SystemKit

/// What to make a thumbnail of, how big, and which qualities the caller wants
/// (Apple's `QLThumbnailGenerator.Request`).
public struct ThumbnailRequest: Sendable, Hashable {
    /// Identifies the request for `ThumbnailGenerator.cancel(_:)`; unique per request made.
    public let id: UInt64
    /// Path of the file.
    public let path: String
    /// Side of the square box, in points.
    public var size: Double
    /// Pixels per point (2 for a thumbnail meant for a HiDPI screen).
    public var scale: Double
    /// The qualities wanted; the generator hands them out lowest first.
    public var types: Set<RepresentationType>
    /// Below this box side (in pixels) only the icon is made, as Apple's `QLThumbnailMinimumDimension`.
    public var minimumDimension: Double?
    /// The file's content type when the caller already knows it (skips sniffing).
    public var contentType: ContentType?
    /// Whether to collect file facts (dimensions, duration, camera…) on the way; off saves a little work in batches.
    public var wantsFacts = true
    /// Caps the icon's side in pixels: a placeholder that the screen scales anyway need not cost
    /// megabytes (a 1024 px icon is 4 MB of pixels). Nil: the icon fills the box like any other.
    public var maximumIconSide: Int?
    /// Hands a freshly made thumbnail out before writing it to the cache (the stream still ends
    /// only once it is written), so the caller can use it meanwhile; its `encodedPNG` is then nil.
    /// For a caller that shows the picture at once (`qlbrowse preview`), not one that saves it.
    public var deliversBeforeCaching = false
    /// Takes a preview the file embeds (a JPEG's EXIF thumbnail or MPF preview) as the thumbnail
    /// when it fills the box without enlarging and shows the whole picture, skipping the decode, as
    /// tumbler does: for a caller that asks for many files' thumbnails at once and wants them soon
    /// (`qlbrowse dbus`). Off: the thumbnail is always decoded from the picture itself.
    public var embeddedSuffices = false
    /// Asks for the cheap picture (what the file embeds) as a worker request of its own before the
    /// full thumbnail; pools serve such requests before any full decode waiting, so a screen of
    /// files on a slow share shows every tile's preview before the first full decode ends (the
    /// browser's pictures). Off: one request makes both, as a batch wants.
    public var cheapPictureFirst = false
    /// The caller saves the thumbnail's PNG and looks at no pixel, then is gone (`thumbnail -o`
    /// writing PNG): a cached picture that fits the box as stored is checked and handed out with
    /// its file's bytes, its pixels decoded only if read, and is not kept in this process's memory.
    package var onlySavesPNG = false

    public init(path: String, size: Double = 256, scale: Double = 1, types: Set<RepresentationType> = Set(RepresentationType.allCases),
                minimumDimension: Double? = nil, contentType: ContentType? = nil) {
        self.id = RequestIdentifiers.next()
        self.path = path
        self.size = size
        self.scale = scale
        self.types = types
        self.minimumDimension = minimumDimension
        self.contentType = contentType
    }

    /// The box the thumbnail must fit, in pixels.
    public var pixelBox: PixelSize { ThumbnailGeometry.pixelBox(size: size, scale: scale) }
}

enum RequestIdentifiers {
    private static let counter = Atomic<UInt64>(0)
    static func next() -> UInt64 { counter.add(1, ordering: .relaxed).newValue }
}
