/// What the views and the shell read of a position, whatever its content: the field of the
/// case that has it, or its resting value (page 0, no zoom, not playing) for the others.
extension QuickLookPosition {
    public var page: Int { if case .pages(let pages) = self { pages.page } else { 0 } }
    public var pageCount: Int? { if case .pages(let pages) = self { pages.pageCount } else { nil } }

    public var line: Int {
        switch self {
        case .text(let text): return text.line
        case .members(let members): return members.line
        default: return 0
        }
    }

    public var lineCount: Int? {
        switch self {
        case .text(let text): return text.lineCount
        case .members(let members): return members.lineCount
        default: return nil
        }
    }

    public var wraps: Bool { if case .text(let text) = self { text.wraps } else { true } }

    public var seconds: Double { if case .timeline(let timeline) = self { timeline.seconds } else { 0 } }
    public var duration: Double? { if case .timeline(let timeline) = self { timeline.duration } else { nil } }
    public var playing: Bool { if case .timeline(let timeline) = self { timeline.playing } else { false } }
    public var loops: Bool { if case .timeline(let timeline) = self { timeline.loops } else { false } }
    public var seekGeneration: Int { if case .timeline(let timeline) = self { timeline.seekGeneration } else { 0 } }
    public var showsMotion: Bool { if case .timeline(let timeline) = self { timeline.motion } else { false } }
    public var animates: Bool { if case .timeline(let timeline) = self { timeline.animates } else { false } }

    public var zoom: Int { if case .picture(let picture) = self { picture.zoom } else { 1 } }
    public var centerX: Double { if case .picture(let picture) = self { picture.centerX } else { 0.5 } }
    public var centerY: Double { if case .picture(let picture) = self { picture.centerY } else { 0.5 } }

    public var showsMembers: Bool { if case .members = self { true } else { false } }

    /// A Motion Photo's movie length, once the worker found one.
    public var motionLength: Double? {
        switch self {
        case .picture(let picture): return picture.motionLength
        case .timeline(let timeline): return timeline.motionLength
        default: return nil
        }
    }

    /// What a custom previewer shows instead of the file, once the worker said so.
    public var custom: QuickLookContent? {
        switch self {
        case .picture(let picture) where picture.custom: return .picture
        case .text(let text) where text.custom: return .text
        default: return nil
        }
    }

    /// Digits typed before Enter: a page, line or second to jump to (nothing on a picture).
    public internal(set) var jump: String {
        get {
            switch self {
            case .pages(let pages): return pages.jump
            case .text(let text): return text.jump
            case .members(let members): return members.jump
            case .timeline(let timeline): return timeline.jump
            case .picture: return ""
            }
        }
        set {
            switch self {
            case .pages(var pages): pages.jump = newValue; self = .pages(pages)
            case .text(var text): text.jump = newValue; self = .text(text)
            case .members(var members): members.jump = newValue; self = .members(members)
            case .timeline(var timeline): timeline.jump = newValue; self = .timeline(timeline)
            case .picture: break
            }
        }
    }

    /// The edit under way (`e`), on a picture, a document's pages or a time line.
    public internal(set) var edit: QuickEdit? {
        get {
            switch self {
            case .picture(let picture): return picture.edit
            case .pages(let pages): return pages.edit
            case .timeline(let timeline): return timeline.edit
            default: return nil
            }
        }
        set {
            switch self {
            case .picture(var picture): picture.edit = newValue; self = .picture(picture)
            case .pages(var pages): pages.edit = newValue; self = .pages(pages)
            case .timeline(var timeline): timeline.edit = newValue; self = .timeline(timeline)
            default: break
            }
        }
    }
}
