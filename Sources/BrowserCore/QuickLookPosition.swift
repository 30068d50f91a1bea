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
    /// What Quick Look shows of `entry` at `position`: a folder's picture, an EPUB's members when
    /// asked for, a custom previewer's output when one took over, an animated PNG or WebP once
    /// the worker found it animated, else what its kind shows.
    public static func shown(_ entry: Entry, at position: QuickLookPosition) -> QuickLookContent {
        if entry.isDirectory { return .picture }
        if position.showsMembers { return .members }
        if position.showsMotion { return .timeline }
        if let custom = position.custom { return custom }
        return position.animates ? .timeline : QuickLookContent(entry.kind, name: entry.name)
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

/// Where Quick Look is inside the file it shows: the page, the first line, the time. It starts
/// over for each file.
public struct QuickLookPosition: Sendable, Equatable {
    /// The page shown (0-based), and how many there are once the document says.
    public var page = 0
    public var pageCount: Int?
    /// The first text line or archive member shown (0-based), and how many there are once known.
    public var line = 0
    public var lineCount: Int?
    /// The time shown in a video or song, and its length once known.
    public var seconds = 0.0
    public var duration: Double?
    /// Digits typed before Enter: a page or line to jump to.
    public var jump = ""
    /// Long text lines wrap (true) or are cut with a marker.
    public var wraps = true
    /// A video, song or animation playing (`p`); the clock moves `seconds` on.
    public var playing = false
    /// Loops at its end (animations) rather than stopping.
    public var loops = false
    /// A photo enlarged (1 fits the screen; 2, 4, 8, 16 times that), and the point of it at the
    /// screen's centre, as fractions of its width and height.
    public var zoom = 1
    public var centerX = 0.5
    public var centerY = 0.5
    /// A document that is an archive inside shows its members instead of its picture (`m`).
    public var showsMembers = false
    /// A custom previewer shows this file (its output: text or a picture), once the worker said so.
    public var custom: QuickLookContent?
    /// A PNG or WebP the worker found animated: it plays like a GIF.
    public var animates = false
    /// Counts seeks, so that a sound playing is started again from the new place.
    public var seekGeneration = 0
    /// A Live Photo's or a Motion Photo's movie plays instead of its still (`p`).
    public var showsMotion = false
    /// A Motion Photo's movie length, once the worker found one inside the picture.
    public var motionLength: Double?
    /// The edit under way (`e`), shown on the picture until it is saved or left.
    public var edit: QuickEdit?

    public init() {}

    /// Asked to go to the end before the length is known: settled when it is.
    public static let end = Int.max / 2

    /// A time step in a video or song: `coarse` for PgDn/PgUp, 5 s for ↓/↑.
    func timeStep(coarse: Bool) -> Double {
        coarse ? max(30, (duration ?? 0) / 10) : 5
    }
}
