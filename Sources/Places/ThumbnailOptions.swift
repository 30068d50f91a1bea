import ThumbnailKit

/// What `fetchThumbnails` makes for each item: the box in points and its scale (File Provider's
/// `requestedSize`), the representations wanted, how many items are made at once, and, for a
/// browser that shows a picture as it gets better, whether every representation is wanted.
public struct ThumbnailOptions: Sendable, Equatable {
    public var size: Double
    public var scale: Double
    public var types: Set<RepresentationType>
    /// Items in flight at once (the place's own limit applies too).
    public var concurrency: Int
    /// Every representation as it is made, lower quality first (icon, low quality, full), as
    /// `QLThumbnailGenerator.generateRepresentations` hands them: `perItem` is then called once
    /// per representation of an item (a lower one may be skipped when a better one is ready
    /// first), and once with a failure when none came. False: once per item, with the best.
    public var progressive = false
    /// Caps the icon's side in pixels (a placeholder the screen scales anyway); nil: the box.
    public var maximumIconSide: Int?
    /// Whether an item changed since it was listed fails (`true`, a batch: never a stale
    /// picture) or is made as it is now (`false`, the browser, which shows what is there and
    /// forgets a file's pictures when told it changed). Either way the version keys the cache.
    public var checksVersion = true
    /// The priority the place's work runs at: what is on screen before a batch.
    public var priority: TaskPriority = .utility

    public init(size: Double = 256, scale: Double = 1, types: Set<RepresentationType> = [.lowQuality, .thumbnail], concurrency: Int = 2) {
        self.size = size
        self.scale = scale
        self.types = types
        self.concurrency = max(1, concurrency)
    }
}
