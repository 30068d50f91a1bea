import SystemKit
import ThumbnailKit

/// What a provider is asked to do: one file, one box, which qualities.
public struct ProviderJob {
    public let path: String
    public let contentType: ContentType
    /// The box the picture must fit, in pixels; the aspect ratio is always kept.
    public let box: PixelSize
    public let wantsLowQuality: Bool
    public let wantsThumbnail: Bool
    public let cancellation: CancellationFlag
    /// Whether the caller shows file facts (dimensions, camera…); reading them can cost a second header parse.
    public let wantsFacts: Bool
    /// Whether a preview the file embeds may be the thumbnail when it fills the box (tumbler's way, for `qlbrowse dbus`).
    public let embeddedSuffices: Bool

    public init(path: String, contentType: ContentType, box: PixelSize, wantsLowQuality: Bool, wantsThumbnail: Bool,
                cancellation: CancellationFlag = CancellationFlag(), wantsFacts: Bool = true, embeddedSuffices: Bool = false) {
        self.wantsFacts = wantsFacts
        self.embeddedSuffices = embeddedSuffices
        self.path = path
        self.contentType = contentType
        self.box = box
        self.wantsLowQuality = wantsLowQuality
        self.wantsThumbnail = wantsThumbnail
        self.cancellation = cancellation
    }
}

/// A picture a provider made, with the name of the decoder that made it.
public struct ProviderImage {
    public let type: RepresentationType
    public let image: PixelImage
    public let source: String
    /// What the decoder learned about the file on the way (dimensions, duration, pages…).
    public var facts: [FileFact]

    public init(_ type: RepresentationType, _ image: PixelImage, source: String, facts: [FileFact] = []) {
        self.type = type
        self.image = image
        self.source = source
        self.facts = facts
    }
}

/// A built-in thumbnail provider: given a file of a type it serves, the best picture it can make
/// within the box. It reports pictures through `emit` (low quality first, when it has one cheaply)
/// and throws a `ThumbnailError` with a reason a user understands when it cannot.
public protocol ThumbnailProvider {
    /// Short name shown as the representation's source (`vips`, `poppler`, `libav`, …).
    var name: String { get }
    func makeImages(for job: ProviderJob, emit: (ProviderImage) -> Void) throws(ThumbnailError)
}
