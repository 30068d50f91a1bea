/// The three qualities a thumbnail comes in, from cheapest to best (Apple's
/// `QLThumbnailGenerator.Request.RepresentationTypes`).
public enum RepresentationType: String, Sendable, Codable, CaseIterable, Comparable {
    /// A generic icon for the file's kind, drawn without reading the file's content.
    case icon
    /// A cheap image already present: an embedded EXIF or RAW preview, cover art, a cached thumbnail.
    case lowQuality
    /// The real thumbnail, decoded from the file's content.
    case thumbnail

    var rank: Int {
        switch self {
        case .icon: return 0
        case .lowQuality: return 1
        case .thumbnail: return 2
        }
    }

    public static func < (lhs: RepresentationType, rhs: RepresentationType) -> Bool { lhs.rank < rhs.rank }
}
