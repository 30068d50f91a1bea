import FileSystemKit
import SystemKit

/// What Quick Look shows of a file, by its kind: a document's pages, a text's lines, a video's
/// or a song's time line, an archive's members, or one picture.
public enum QuickLookContent: Sendable, Equatable {
    case pages, text, timeline, members, picture

    /// What Quick Look shows of a file called `name` of this kind (an animated GIF plays like a video).
    public init(_ kind: ContentKind, name: String = "") {
        if kind == .image && Self.isAnimation(name) {
            self = .timeline
            return
        }
        switch kind {
        case .pdf: self = .pages
        case .text: self = .text
        case .video, .audio: self = .timeline
        case .archive: self = .members
        default: self = .picture
        }
    }
}

extension QuickLookContent {
    /// What Quick Look shows of `entry` at `position`: a folder's picture; the position's own
    /// content when it fits the entry (an EPUB's members when asked for, a custom previewer's
    /// output, an animated PNG or WebP, a Live Photo's movie); else what its kind shows.
    public static func shown(_ entry: Entry, at position: QuickLookPosition?) -> QuickLookContent {
        if entry.isDirectory { return .picture }
        guard let position, position.fits(entry) else { return QuickLookContent(entry.kind, name: entry.name) }
        return position.content
    }

    /// Pictures that move: played frame by frame at their own timing, looping. (A GIF is taken to
    /// move; a PNG or WebP moves only when the worker finds frames in it, see `mayAnimate`.)
    public static func isAnimation(_ name: String) -> Bool { name.lowercased().hasSuffix(".gif") }

    /// Pictures whose format can hold an animation, though most are still: Quick Look asks the
    /// worker which this one is.
    public static func mayAnimate(_ name: String) -> Bool { ["png", "apng", "webp"].contains(suffix(of: name)) }

    /// Documents that are archives inside (EPUB, OpenDocument, OOXML, comic books…): shown by
    /// their picture, with their members a key away.
    public static func isContainer(_ name: String) -> Bool {
        ["epub", "odt", "ods", "odp", "odg", "docx", "xlsx", "pptx", "cbz", "cbr", "cb7", "cbt", "3mf", "kra", "ora"].contains(suffix(of: name))
    }

    private static func suffix(of name: String) -> String { name.split(separator: ".").last.map { $0.lowercased() } ?? "" }
}
