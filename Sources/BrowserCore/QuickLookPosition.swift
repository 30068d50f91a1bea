import FileSystemKit

/// Where Quick Look is inside the file it shows, one case per kind of content, each with only
/// its own fields: a picture (enlarged, panned, edited), a document's pages, a text's lines, an
/// archive's members, a video's, song's or animation's time. It starts over for each file
/// (`start(for:)`); a previewer's news or a key can turn it into another case (`m` shows an
/// EPUB's members, `p` a Live Photo's movie, a custom previewer's text replaces a picture).
public enum QuickLookPosition: Sendable, Equatable {
    case picture(Picture)
    case pages(Pages)
    case text(Text)
    case members(Members)
    case timeline(Timeline)

    /// Nothing known yet: a picture at its start.
    public init() { self = .picture(Picture()) }

    /// Asked to go to the end before the length is known: settled when it is.
    public static let end = Int.max / 2

    /// Where Quick Look starts on `entry`: what its kind shows, at the start (an animation playing).
    public static func start(for entry: Entry?) -> QuickLookPosition {
        guard let entry, !entry.isDirectory else { return QuickLookPosition() }
        switch QuickLookContent(entry.kind, name: entry.name) {
        case .picture: return .picture(Picture())
        case .pages: return .pages(Pages())
        case .text: return .text(Text())
        case .members: return .members(Members())
        case .timeline:
            var timeline = Timeline()
            if entry.kind == .image && QuickLookContent.isAnimation(entry.name) { (timeline.playing, timeline.loops) = (true, true) }
            return .timeline(timeline)
        }
    }

    /// What this position shows.
    public var content: QuickLookContent {
        switch self {
        case .picture: return .picture
        case .pages: return .pages
        case .text: return .text
        case .members: return .members
        case .timeline: return .timeline
        }
    }

    /// Whether this position can be one of `entry`'s: what its kind shows, or what a key or a
    /// previewer turned it into (members of a container, a custom previewer's output, frames
    /// found in a picture, a Live Photo's movie). A position that does not fit was another file's.
    public func fits(_ entry: Entry) -> Bool {
        let shown = QuickLookContent(entry.kind, name: entry.name)
        switch self {
        case .picture(let picture): return shown == .picture || picture.custom || entry.isDirectory
        case .pages: return shown == .pages
        case .text(let text): return shown == .text || text.custom
        case .members: return shown == .members || QuickLookContent.isContainer(entry.name)
        case .timeline(let timeline): return shown == .timeline || timeline.motion || timeline.animates
        }
    }
}
