import SystemKit
import ThumbnailKit

/// Inside Quick Look: paging a document, scrolling a text or an archive's members, seeking in
/// a video or song, jumping to a typed page or line. ←/→ stay previous/next file.
extension BrowserState {
    /// What Quick Look shows of the selected entry.
    public var quickLookContent: QuickLookContent? { selected.map { QuickLookContent.shown($0, at: quickLook) } }

    /// Whether Quick Look can enlarge what it shows: a photo or a RAW file.
    public var canZoom: Bool {
        guard let entry = selected, quickLookContent == .picture, quickLook.edit == nil else { return false }
        return entry.kind == .image || entry.kind == .rawImage
    }

    /// Rows of text or members Quick Look shows at once.
    public var quickLookRows: Int { max(1, layout.rows - 3) }

    /// Quick Look's own actions; nil for the rest.
    mutating func applyQuickLook(_ action: BrowserAction) -> [BrowserEffect]? {
        switch action {
        case .quickLookStep(let count): move(by: count, coarse: false)
        case .quickLookPage(let count): move(by: count, coarse: true)
        case .quickLookEdge(let last): moveToEdge(last: last)
        case .quickLookDigit(let digit): quickLook.jump = String((quickLook.jump + digit).suffix(9))
        case .quickLookJump:
            guard let number = Int(quickLook.jump), number > 0 else { quickLook.jump = ""; return [] }
            quickLook.jump = ""
            quickLook.seekGeneration += 1
            switch quickLookContent {
            case .pages?: quickLook.page = number - 1
            case .text?, .members?: quickLook.line = number - 1
            case .timeline?: quickLook.seconds = Double(number)
            default: break
            }
            clampQuickLook()
        case .quickLookToggleWrap: quickLook.wraps.toggle()
        case .quickLookZoom(let steps):
            guard canZoom else { return [] }
            quickLook.zoom = min(16, max(1, steps > 0 ? quickLook.zoom << steps : quickLook.zoom >> -steps))
            if quickLook.zoom == 1 { (quickLook.centerX, quickLook.centerY) = (0.5, 0.5) }
        case .quickLookPan(let x, let y):
            guard quickLook.zoom > 1 else { return [] }
            // A quarter of the screen a step; the middle of the screen stays on the picture.
            let step = 0.25 / Double(quickLook.zoom), margin = 0.5 / Double(quickLook.zoom)
            quickLook.centerX = min(1 - margin, max(margin, quickLook.centerX + Double(x) * step))
            quickLook.centerY = min(1 - margin, max(margin, quickLook.centerY + Double(y) * step))
        case .quickLookToggleMembers:
            guard let entry = selected, QuickLookContent.isContainer(entry.name) else { return [] }
            quickLook.showsMembers.toggle()
            quickLook.line = 0
            quickLook.lineCount = nil
        case .quickLookPlayMotion:
            guard hasMotion else { return [] }
            (quickLook.showsMotion, quickLook.playing, quickLook.loops, quickLook.seconds, quickLook.duration) = (true, true, false, 0, nil)
            quickLook.seekGeneration += 1
        case .quickLookTogglePlay:
            guard quickLookContent == .timeline else { return [] }
            quickLook.playing.toggle()
            if quickLook.playing, let duration = quickLook.duration, quickLook.seconds >= duration - 0.5 { quickLook.seconds = 0 }
        case .quickLookFacts(let path, let facts):
            guard path == quickLookPath else { return [] }
            if let count = facts.pageCount { quickLook.pageCount = count }
            if let count = facts.lineCount { quickLook.lineCount = count }
            if let duration = facts.duration {
                quickLook.duration = duration
                // A PNG or WebP with a length has frames: it plays, looping, like a GIF.
                if quickLookContent == .picture, let entry = selected, entry.kind == .image, QuickLookContent.mayAnimate(entry.name) {
                    quickLook.animates = true
                    quickLook.playing = true
                    quickLook.loops = true
                } else if quickLookContent == .picture, let entry = selected, entry.kind == .image, FileFact.mayBeMotionPhoto(entry.name) {
                    quickLook.motionLength = duration
                }
            }
            if let custom = facts.custom {
                quickLook.custom = custom
                quickLook.playing = false
            }
            if let first = facts.firstLine, quickLook.line >= QuickLookPosition.end { quickLook.line = first }
            clampQuickLook()
        default: return nil
        }
        return []
    }

    /// Starts Quick Look over for the file now selected: an animation starts playing.
    mutating func resetQuickLook() {
        quickLook = QuickLookPosition()
        if let entry = selected, entry.kind == .image, QuickLookContent.isAnimation(entry.name) {
            quickLook.playing = true
            quickLook.loops = true
        }
    }

    /// The clock while playing: the position moves on by the time that passed, and stops (or
    /// loops) at the end.
    mutating func play(until time: Int64, from last: Int64) {
        guard overlay == .quickLook, quickLook.playing, quickLookContent == .timeline, last > 0 else { return }
        quickLook.seconds += Double(max(0, time - last)) / 1e9
        guard let duration = quickLook.duration, duration > 0, quickLook.seconds >= duration else { return }
        if quickLook.loops {
            quickLook.seconds = quickLook.seconds.truncatingRemainder(dividingBy: duration)
        } else {
            quickLook.seconds = max(0, duration - 0.5)
            quickLook.playing = false
        }
    }

    /// The sound to play now (a path and where to start), or nil: Quick Look open on a playing
    /// song or video. Compared with what plays, it starts and stops the player.
    var wantedSound: Sound? {
        guard overlay == .quickLook, quickLook.playing, !quickLook.loops, let path = quickLookPath, let entry = selected,
              entry.kind == .audio || entry.kind == .video || (quickLook.showsMotion && liveMovie(of: entry) != nil) else { return nil }
        return Sound(path: path, seekGeneration: quickLook.seekGeneration)
    }

    private mutating func move(by count: Int, coarse: Bool) {
        quickLook.jump = ""
        quickLook.seekGeneration += 1
        switch quickLookContent {
        case .pages?: quickLook.page += count
        case .text?, .members?: quickLook.line = min(quickLook.line, quickLook.lineCount ?? quickLook.line) + count * (coarse ? quickLookRows - 1 : 1)
        case .timeline?: quickLook.seconds += Double(count) * quickLook.timeStep(coarse: coarse)
        default: return
        }
        clampQuickLook()
    }

    private mutating func moveToEdge(last: Bool) {
        quickLook.jump = ""
        quickLook.seekGeneration += 1
        switch quickLookContent {
        case .pages?: quickLook.page = last ? (quickLook.pageCount.map { $0 - 1 } ?? QuickLookPosition.end) : 0
        case .text?, .members?: quickLook.line = last ? QuickLookPosition.end : 0
        case .timeline?: quickLook.seconds = last ? max(0, (quickLook.duration ?? 0) - 1) : 0
        default: return
        }
        clampQuickLook()
    }

    /// Keeps the position inside the file, as far as its length is known.
    private mutating func clampQuickLook() {
        quickLook.page = max(0, quickLook.pageCount.map { min(quickLook.page, $0 - 1) } ?? quickLook.page)
        if let count = quickLook.lineCount { quickLook.line = min(quickLook.line, max(0, count - quickLookRows)) }
        quickLook.line = max(0, quickLook.line)
        if let duration = quickLook.duration {
            // A video stops half a second before its end, where a last frame can still be shown;
            // an animation loops, and a short one (1.5 s) would never pass that point.
            if quickLook.loops {
                if duration > 0, quickLook.seconds >= duration { quickLook.seconds = quickLook.seconds.truncatingRemainder(dividingBy: duration) }
            } else {
                quickLook.seconds = min(quickLook.seconds, max(0, duration - 0.5))
            }
        }
        quickLook.seconds = max(0, quickLook.seconds)
    }
}

/// A song or a video's sound as it should play: started again when the user seeks.
public struct Sound: Sendable, Equatable {
    public let path: String
    public let seekGeneration: Int
}

/// What a previewer learned about a file's length: pages, lines, time, and where a jump to the
/// end landed.
public struct QuickLookFacts: Sendable, Equatable {
    public var pageCount: Int?
    public var lineCount: Int?
    public var duration: Double?
    public var firstLine: Int?
    /// A custom previewer takes over: its output is text or a picture.
    public var custom: QuickLookContent?

    public init(pageCount: Int? = nil, lineCount: Int? = nil, duration: Double? = nil, firstLine: Int? = nil, custom: QuickLookContent? = nil) {
        self.custom = custom
        self.pageCount = pageCount
        self.lineCount = lineCount
        self.duration = duration
        self.firstLine = firstLine
    }
}
