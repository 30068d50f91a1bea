import SystemKit
import ThumbnailKit

/// How a place thumbnails whole folders into its cache (`Place.thumbnailFolders`): the box,
/// how many files at once, a share of the files, and how the cache is used (`T` in the browser,
/// `qlbrowse thumbnail -r`).
public struct BatchOptions: Sendable, Equatable {
    /// The box each thumbnail fits, in pixels (256×256: the cache's `large`).
    public var box: PixelSize
    /// Files decoded at once.
    public var jobs: Int
    /// Only this share of the files (several machines splitting one library).
    public var shard: ThumbnailBatch.Shard?
    /// Also writes `.sh_thumbnails/` beside the files, for other machines.
    public var writesShared: Bool
    /// Makes every thumbnail again, whatever the cache holds (`--force`).
    public var ignoresStored: Bool

    public init(box: PixelSize = PixelSize(width: 256, height: 256), jobs: Int = 1, shard: ThumbnailBatch.Shard? = nil,
                writesShared: Bool = false, ignoresStored: Bool = false) {
        self.box = box
        self.jobs = max(1, jobs)
        self.shard = shard
        self.writesShared = writesShared
        self.ignoresStored = ignoresStored
    }
}
