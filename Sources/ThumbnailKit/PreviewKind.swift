/// What a preview request to a worker asks for, instead of thumbnails (see `PreviewGenerator`).
package enum PreviewKind: String, Codable, Sendable {
    /// One page of a paged document, rendered at the box's size.
    case page
    /// One video frame near a time.
    case frame
    /// Duration and streams of an audio or video file, without decoding a picture.
    case mediaFacts
    /// The members of an archive, headers only.
    case members
}
