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
    /// The output of the custom previewer (`.previewer` file) for the file's exact type.
    case custom
    /// Which custom previewer would serve the file, without running it.
    case previewer
    /// A part of a picture, enlarged: for zooming into a photo in Quick Look.
    case region
    /// A lossless edit written to a new file (`FileEdit`).
    case edit
}
