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

    /// Quick Look's own actions (`.open` is the browser's: it opens Quick Look).
    mutating func reduce(_ action: QuickLookAction) -> [BrowserEffect] {
        switch action {
        case .open: break
        case .step(let count): move(by: count, coarse: false)
        case .page(let count): move(by: count, coarse: true)
        case .edge(let last): moveToEdge(last: last)
        case .digit(let digit): quickLook.jump = String((quickLook.jump + digit).suffix(9))
        case .jump:
            guard let number = Int(quickLook.jump), number > 0 else { quickLook.jump = ""; return [] }
            quickLook.jump = ""
            switch quickLook {
            case .pages(var pages): pages.page = number - 1; quickLook = .pages(pages)
            case .text(var text): text.line = number - 1; quickLook = .text(text)
            case .members(var members): members.line = number - 1; quickLook = .members(members)
            case .timeline(var timeline):
                timeline.seconds = Double(number)
                timeline.seekGeneration += 1
                quickLook = .timeline(timeline)
            case .picture: break
            }
            clampQuickLook()
        case .toggleWrap:
            if case .text(var text) = quickLook { text.wraps.toggle(); quickLook = .text(text) }
        case .zoom(let steps):
            guard canZoom, case .picture(var picture) = quickLook else { return [] }
            picture.zoom = min(16, max(1, steps > 0 ? picture.zoom << steps : picture.zoom >> -steps))
            if picture.zoom == 1 { (picture.centerX, picture.centerY) = (0.5, 0.5) }
            quickLook = .picture(picture)
        case .pan(let x, let y):
            guard case .picture(var picture) = quickLook, picture.zoom > 1 else { return [] }
            // A quarter of the screen a step; the middle of the screen stays on the picture.
            let step = 0.25 / Double(picture.zoom), margin = 0.5 / Double(picture.zoom)
            picture.centerX = min(1 - margin, max(margin, picture.centerX + Double(x) * step))
            picture.centerY = min(1 - margin, max(margin, picture.centerY + Double(y) * step))
            quickLook = .picture(picture)
        case .toggleMembers:
            guard let entry = selected, QuickLookContent.isContainer(entry.name) else { return [] }
            let members = quickLook.showsMembers && QuickLookContent(entry.kind, name: entry.name) != .members
            quickLook = members ? .start(for: entry) : .members(QuickLookPosition.Members())
        case .playMotion:
            guard hasMotion else { return [] }
            var timeline = QuickLookPosition.Timeline()
            (timeline.motion, timeline.playing, timeline.motionLength, timeline.seekGeneration) = (true, true, quickLook.motionLength, 1)
            quickLook = .timeline(timeline)
        case .togglePlay:
            guard quickLookContent == .timeline, case .timeline(var timeline) = quickLook else { return [] }
            timeline.playing.toggle()
            if timeline.playing, let duration = timeline.duration, timeline.seconds >= duration - 0.5 { timeline.seconds = 0 }
            quickLook = .timeline(timeline)
        }
        return []
    }

    /// What a previewer found out about `path`: a custom previewer taking over, the length
    /// (pages, lines, time), frames in a picture, where a jump to the end landed.
    mutating func receive(_ facts: QuickLookFacts, about path: String) {
        guard path == quickLookPath else { return }
        switch facts.custom {
        case .text?: if case .text(var text) = quickLook { text.custom = true; quickLook = .text(text) } else { quickLook = .text(.init(custom: true)) }
        case .picture?:
            if case .picture(var picture) = quickLook { picture.custom = true; quickLook = .picture(picture) } else {
                var picture = QuickLookPosition.Picture()
                picture.custom = true
                quickLook = .picture(picture)
            }
        default: break
        }
        switch quickLook {
        case .pages(var pages):
            pages.pageCount = facts.pageCount ?? pages.pageCount
            pages.pagePoints.merge(facts.pagePoints) { $1 }
            quickLook = .pages(pages)
        case .text(var text):
            text.lineCount = facts.lineCount ?? text.lineCount
            if let first = facts.firstLine, text.line >= QuickLookPosition.end { text.line = first }
            quickLook = .text(text)
        case .members(var members):
            members.lineCount = facts.lineCount ?? members.lineCount
            if let first = facts.firstLine, members.line >= QuickLookPosition.end { members.line = first }
            quickLook = .members(members)
        case .timeline(var timeline): timeline.duration = facts.duration ?? timeline.duration; quickLook = .timeline(timeline)
        case .picture(var picture):
            if let size = facts.pictureSize, picture.size != size { picture.size = size; quickLook = .picture(picture) }
            guard let duration = facts.duration, let entry = selected, entry.kind == .image, !picture.custom else { break }
            if QuickLookContent.mayAnimate(entry.name) {
                // A PNG or WebP with a length has frames: it plays, looping, like a GIF.
                var timeline = QuickLookPosition.Timeline()
                (timeline.duration, timeline.animates, timeline.playing, timeline.loops) = (duration, true, true, true)
                quickLook = .timeline(timeline)
            } else if FileFact.mayBeMotionPhoto(entry.name) {
                picture.motionLength = duration
                quickLook = .picture(picture)
            }
        }
        clampQuickLook()
    }

    /// Starts Quick Look over for the file now selected: an animation starts playing.
    mutating func resetQuickLook() { quickLook = .start(for: selected) }

    /// The clock while playing: the position moves on by the time that passed, and stops (or
    /// loops) at the end.
    mutating func play(until time: Int64, from last: Int64) {
        guard overlay == .quickLook, case .timeline(var timeline) = quickLook, timeline.playing, quickLookContent == .timeline, last > 0 else { return }
        defer { quickLook = .timeline(timeline) }
        timeline.seconds += Double(max(0, time - last)) / 1e9
        guard let duration = timeline.duration, duration > 0, timeline.seconds >= duration else { return }
        if timeline.loops {
            timeline.seconds = timeline.seconds.truncatingRemainder(dividingBy: duration)
        } else {
            timeline.seconds = max(0, duration - 0.5)
            timeline.playing = false
        }
    }

    /// The sound to play now (a path and where to start), or nil: Quick Look open on a playing
    /// song or video. Compared with what plays, it starts and stops the player.
    var wantedSound: Sound? {
        guard overlay == .quickLook, case .timeline(let timeline) = quickLook, timeline.playing, !timeline.loops, let path = quickLookPath,
              let entry = selected, entry.kind == .audio || entry.kind == .video || (timeline.motion && liveMovie(of: entry) != nil) else { return nil }
        return Sound(path: path, seekGeneration: timeline.seekGeneration)
    }

    private mutating func move(by count: Int, coarse: Bool) {
        quickLook.jump = ""
        switch quickLook {
        case .pages(var pages): pages.page += count; quickLook = .pages(pages)
        case .text(var text): text.line = min(text.line, text.lineCount ?? text.line) + count * (coarse ? quickLookRows - 1 : 1); quickLook = .text(text)
        case .members(var members):
            members.line = min(members.line, members.lineCount ?? members.line) + count * (coarse ? quickLookRows - 1 : 1)
            quickLook = .members(members)
        case .timeline(var timeline):
            timeline.seekGeneration += 1
            timeline.seconds += Double(count) * timeline.timeStep(coarse: coarse)
            quickLook = .timeline(timeline)
        case .picture: return
        }
        clampQuickLook()
    }

    private mutating func moveToEdge(last: Bool) {
        quickLook.jump = ""
        switch quickLook {
        case .pages(var pages): pages.page = last ? (pages.pageCount.map { $0 - 1 } ?? QuickLookPosition.end) : 0; quickLook = .pages(pages)
        case .text(var text): text.line = last ? QuickLookPosition.end : 0; quickLook = .text(text)
        case .members(var members): members.line = last ? QuickLookPosition.end : 0; quickLook = .members(members)
        case .timeline(var timeline):
            timeline.seekGeneration += 1
            timeline.seconds = last ? max(0, (timeline.duration ?? 0) - 1) : 0
            quickLook = .timeline(timeline)
        case .picture: return
        }
        clampQuickLook()
    }

    /// Keeps the position inside the file, as far as its length is known.
    private mutating func clampQuickLook() {
        let rows = quickLookRows
        func clamp(_ line: Int, _ count: Int?) -> Int { max(0, count.map { min(line, max(0, $0 - rows)) } ?? line) }
        switch quickLook {
        case .pages(var pages): pages.page = max(0, pages.pageCount.map { min(pages.page, $0 - 1) } ?? pages.page); quickLook = .pages(pages)
        case .text(var text): text.line = clamp(text.line, text.lineCount); quickLook = .text(text)
        case .members(var members): members.line = clamp(members.line, members.lineCount); quickLook = .members(members)
        case .timeline(var timeline):
            if let duration = timeline.duration {
                // A video stops half a second before its end, where a last frame can still be shown;
                // an animation loops, and a short one (1.5 s) would never pass that point.
                if timeline.loops {
                    if duration > 0, timeline.seconds >= duration { timeline.seconds = timeline.seconds.truncatingRemainder(dividingBy: duration) }
                } else {
                    timeline.seconds = min(timeline.seconds, max(0, duration - 0.5))
                }
            }
            timeline.seconds = max(0, timeline.seconds)
            quickLook = .timeline(timeline)
        case .picture: break
        }
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
    /// A picture's size as shown (its "dimensions" fact), which a crop works in.
    public var pictureSize: PixelSize?
    /// Pages' sizes in points as shown (0-based page: size), which Markup's marks on a page are measured in.
    public var pagePoints: [Int: PixelSize]

    public init(pageCount: Int? = nil, lineCount: Int? = nil, duration: Double? = nil, firstLine: Int? = nil, custom: QuickLookContent? = nil,
                pictureSize: PixelSize? = nil, pagePoints: [Int: PixelSize] = [:]) {
        self.pagePoints = pagePoints
        self.custom = custom
        self.pictureSize = pictureSize
        self.pageCount = pageCount
        self.lineCount = lineCount
        self.duration = duration
        self.firstLine = firstLine
    }
}
