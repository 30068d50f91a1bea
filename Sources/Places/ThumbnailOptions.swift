import ThumbnailKit

/// What `fetchThumbnails` makes for each item: the box in points and its scale (File Provider's
/// `requestedSize`), the representations wanted, and how many items are made at once.
public struct ThumbnailOptions: Sendable, Equatable {
    public var size: Double
    public var scale: Double
    public var types: Set<RepresentationType>
    /// Items in flight at once (the place's own limit applies too).
    public var concurrency: Int

    public init(size: Double = 256, scale: Double = 1, types: Set<RepresentationType> = [.lowQuality, .thumbnail], concurrency: Int = 2) {
        self.size = size
        self.scale = scale
        self.types = types
        self.concurrency = max(1, concurrency)
    }
}
