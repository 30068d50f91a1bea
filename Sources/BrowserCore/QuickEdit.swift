import FileSystemKit
import ThumbnailKit

/// Quick Look's edit of the file it shows (`e`): what the edit would do, shown on the picture
/// before anything is written, then saved by a worker as a replacement (the original kept in the
/// Trash) or as a copy.
public struct QuickEdit: Sendable, Equatable {
    /// What kind of file is edited, which decides the edits offered.
    public enum Target: Sendable, Equatable {
        /// A still photo or picture: turned and mirrored.
        case picture
        /// A PDF: pages turned by their rotation entry.
        case document
        /// A video: trimmed, and turned by its display matrix.
        case video
        /// A song: trimmed.
        case song
    }

    /// Where the edit is: choosing, asked how to save, or being saved.
    public enum Step: Sendable, Equatable {
        case choosing
        /// Enter was pressed on a crop of a HEIC or AVIF picture: it can only be written again
        /// with loss, which is asked plainly first.
        case askingLossy
        /// Enter was pressed: replace the original, save a copy, or go back.
        case askingHowToSave
        /// A worker is writing the result.
        case saving
    }

    public let target: Target
    public internal(set) var step = Step.choosing
    /// Quarter turns clockwise: of the picture, of every page, or of the video.
    public internal(set) var quarterTurns = 0
    /// The picture mirrored left to right (before it is turned).
    public internal(set) var flip = false
    /// A PDF's pages turned one by one (0-based page: quarter turns clockwise), on top of `quarterTurns`.
    public internal(set) var pageTurns: [Int: Int] = [:]
    /// Where a trimmed video or song starts and ends, in seconds of the original.
    public internal(set) var trimStart: Double?
    public internal(set) var trimEnd: Double?
    /// The crop under way (`c` on a picture): the rectangle kept, over the picture as shown
    /// (turned as the edit turned it before `c`).
    public internal(set) var crop: RectangleEditor?
    /// A HEIC or AVIF picture: a crop writes it again with loss (asked before saving).
    public internal(set) var cropLosesQuality = false
    /// Markup under way (`m` on a picture or a PDF page): the marks, written in one pass.
    public internal(set) var markup: MarkupEditor?

    /// How the picture is shown while editing: mirrored left to right, then turned clockwise.
    public struct Turn: Sendable, Equatable, CustomStringConvertible {
        public let quarterTurns: Int
        public let mirrored: Bool

        public init(quarterTurns: Int, mirrored: Bool) {
            self.quarterTurns = quarterTurns
            self.mirrored = mirrored
        }

        public static let none = Turn(quarterTurns: 0, mirrored: false)

        public var description: String { "turn\(quarterTurns)\(mirrored ? "m" : "")" }
    }

    public init(target: Target) {
        self.target = target
    }

    /// The edit a file offers, or nil: still pictures libvips or libjpeg can write, PDFs, videos
    /// and songs.
    public static func target(for entry: Entry, showing content: QuickLookContent?) -> Target? {
        switch (entry.kind, content) {
        case (.image, .picture?):
            let suffix = entry.name.split(separator: ".").last.map { $0.lowercased() } ?? ""
            return ["jpg", "jpeg", "jpe", "jfif", "png", "webp", "tif", "tiff", "heic", "heif", "avif"].contains(suffix) ? .picture : nil
        case (.pdf, .pages?): return .document
        case (.video, .timeline?): return .video
        case (.audio, .timeline?): return .song
        default: return nil
        }
    }

    /// Nothing would change.
    public var isEmpty: Bool { edits(duration: nil).isEmpty }

    /// The turn the picture of `page` (0 for pictures and frames) shows while editing.
    public func shownTurn(page: Int = 0) -> Turn {
        let turns = target == .document ? quarterTurns + (pageTurns[page] ?? 0) : quarterTurns
        return Turn(quarterTurns: Self.normalized(turns), mirrored: flip)
    }

    /// The edits that make the result, in order (a video trimmed and turned takes two passes);
    /// `duration` fills in an end not set.
    public func edits(duration: Double?) -> [FileEdit] {
        var edits: [FileEdit] = []
        switch target {
        case .picture:
            // The crop goes first, on the picture as the file shows it: its rectangle is carried back through the turn.
            if let crop = croppedRect { edits.append(.crop(crop, allowLossy: cropLosesQuality)) }
            if Self.normalized(quarterTurns) != 0 || flip { edits.append(.rotate(quarterTurns: Self.normalized(quarterTurns), flip: flip)) }
            if let marks = markup?.marks, !marks.isEmpty { edits.append(.annotate(marks: marks)) }
        case .document:
            if let marks = markup?.marks, !marks.isEmpty { edits.append(.annotate(marks: marks)) }
            if Self.normalized(quarterTurns) != 0 { edits.append(.rotatePages(pages: [], quarterTurns: Self.normalized(quarterTurns))) }
            // One pass per amount: the pages turned right together, those turned left together.
            for (amount, pages) in pagesByTurn {
                edits.append(.rotatePages(pages: pages, quarterTurns: amount))
            }
        case .video, .song:
            if let trim = trimmed(duration: duration) { edits.append(.trim(start: trim.start, end: trim.end)) }
            if target == .video, Self.normalized(quarterTurns) != 0 { edits.append(.rotateVideo(quarterTurns: Self.normalized(quarterTurns))) }
        }
        return edits
    }

    /// The pages turned one by one, grouped by how far (quarter turns clockwise, 1–3), each
    /// group's pages (0-based) in order.
    private var pagesByTurn: [(amount: Int, pages: [Int])] {
        let byAmount = Dictionary(grouping: pageTurns.filter { Self.normalized($0.value) != 0 }, by: { Self.normalized($0.value) })
        return byAmount.keys.sorted().map { ($0, byAmount[$0]!.map(\.key).sorted()) }
    }

    /// The part kept when a start or an end is set, or nil.
    public func trimmed(duration: Double?) -> (start: Double, end: Double)? {
        guard trimStart != nil || trimEnd != nil else { return nil }
        let start = trimStart ?? 0
        guard let end = trimEnd ?? duration, end > start else { return nil }
        return (start, end)
    }

    /// What the edit does, in words: "turned right, mirrored", "pages 2, 5 turned left",
    /// "0:10.0–0:45.0 kept".
    public func summary(duration: Double?) -> String {
        var words: [String] = []
        if flip { words.append("mirrored") }
        switch target {
        case .picture, .video:
            if let turn = Self.turnName(quarterTurns) { words.append("turned \(turn)") }
        case .document:
            if let turn = Self.turnName(quarterTurns) { words.append("every page turned \(turn)") }
            for (amount, pages) in pagesByTurn {
                words.append("page\(pages.count == 1 ? "" : "s") \(pages.map { String($0 + 1) }.joined(separator: ", ")) turned \(Self.turnName(amount)!)")
            }
        case .song: break
        }
        if let crop, !crop.isWhole { words.append("cropped to \(crop.rect.width)×\(crop.rect.height)") }
        if let markup { words.append(markup.marks.count == 1 ? "1 mark" : "\(markup.marks.count) marks") }
        if let trim = trimmed(duration: duration) {
            words.append("\(FileEditResult.clock(trim.start))–\(FileEditResult.clock(trim.end)) kept")
        } else if trimStart != nil || trimEnd != nil {
            words.append("the end must come after the start")
        }
        return words.isEmpty ? "no change yet" : words.joined(separator: ", ")
    }

    mutating func turn(by quarterTurns: Int, page: Int?) {
        if let page, target == .document {
            pageTurns[page] = Self.normalized((pageTurns[page] ?? 0) + quarterTurns)
        } else {
            // The turn comes after the mirror, so a turn of what is shown adds to it.
            self.quarterTurns = Self.normalized(self.quarterTurns + quarterTurns)
        }
    }

    mutating func mirror() {
        // The mirror applies before the turn; mirroring what is shown (turned by t) is the same
        // as mirroring first and turning by -t.
        flip.toggle()
        quarterTurns = Self.normalized(-quarterTurns)
    }

    mutating func setTrim(start: Bool, at seconds: Double) {
        if start { trimStart = seconds } else { trimEnd = seconds }
    }

    mutating func clearTrim() {
        trimStart = nil
        trimEnd = nil
    }

    mutating func moveTo(_ step: Step) { self.step = step }

    static func normalized(_ turns: Int) -> Int { ((turns % 4) + 4) % 4 }

    static func turnName(_ turns: Int) -> String? {
        switch normalized(turns) {
        case 1: "right"
        case 2: "upside down"
        case 3: "left"
        default: nil
        }
    }
}
