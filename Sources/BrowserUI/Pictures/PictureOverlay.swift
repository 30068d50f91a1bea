import ThumbnailKit

/// What an edit under way draws into Quick Look's picture before it is encoded: a crop's
/// rectangle, or Markup's marks.
enum PictureOverlay: Sendable, Equatable, CustomStringConvertible {
    case rectangle(RectangleOverlay)
    case marks(MarkOverlay)

    var description: String {
        switch self {
        case .rectangle(let overlay): overlay.description
        case .marks(let overlay): overlay.description
        }
    }

    func applied(to image: PixelImage) -> PixelImage {
        switch self {
        case .rectangle(let overlay): overlay.applied(to: image)
        case .marks(let overlay): overlay.applied(to: image)
        }
    }
}
