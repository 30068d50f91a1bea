/// What a custom previewer showed for a file, as `PreviewGenerator.custom(path:box:columns:rows:)`
/// returns it.
public struct CustomPreview: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        /// The previewer's standard output, as printed: meant to be text with SGR colours
        /// (`ESC [ … m`), but nothing is checked — it may hold other escape sequences, control
        /// characters or invalid UTF-8. The caller must escape everything but SGR before it
        /// reaches a terminal, as it does for any file's text.
        case text([UInt8])
        /// The previewer's picture, decoded and fitted into the box (never enlarged).
        case image(PixelImage)
    }

    /// The previewer that made it.
    public let previewer: PreviewerInfo
    public let content: Content
    /// The text was cut at `PreviewGenerator.maximumCustomTextBytes` (the previewer was stopped there).
    public let truncated: Bool

    public init(previewer: PreviewerInfo, content: Content, truncated: Bool) {
        self.previewer = previewer
        self.content = content
        self.truncated = truncated
    }
}
