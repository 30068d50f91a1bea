import ThumbnailKit

/// Quick Look's Markup (`e`, then `m` on a photo or a PDF page): the keys of the editor, and the
/// canvas its marks are measured on — the picture's pixels as shown, or the page's points as
/// shown (the page shown; paging goes on while marking).
extension BrowserState {
    /// The page or picture marks go on now, once its size is known.
    public var markupCanvas: MarkupEditor.Canvas? {
        switch quickLook {
        case .picture(let picture): picture.size.map { MarkupEditor.Canvas(size: $0) }
        case .pages(let pages): pages.pagePoints[pages.page].map { MarkupEditor.Canvas(page: pages.page, size: $0) }
        default: nil
        }
    }

    /// While marking: 1–6 the kind, `c` the colour, hjkl/arrows and HJKL place and size a box
    /// that Enter adds, `u`/Ctrl-R undo and redo; the mouse draws. Enter with no box placed asks
    /// how to save, Esc leaves (a placed box goes first). A note's text takes every key until
    /// Enter or Esc. Nil passes the key to Quick Look (paging).
    func markupIntention(for key: KeyPress, _ command: Command?, _ markup: MarkupEditor) -> BrowserAction? {
        if markup.noteText != nil {
            guard case .prompt(let typing)? = promptIntention(for: key) else { return nil }
            return .edit(.markup(.note(typing)))
        }
        if key == .escape { return .edit(markup.placing != nil ? .markup(.stopPlacing) : .leave) }
        if command == .screen(.quickLook) || command == .screen(.quit) { return .edit(.leave) }
        if key.isEnter { return .edit(markup.placing != nil ? .markup(.add) : .askSave) }
        let change: MarkupEditor.Action?
        switch key {
        case .special(.left): change = .box(.move(.left))
        case .special(.right): change = .box(.move(.right))
        case .special(.up): change = .box(.move(.up))
        case .special(.down): change = .box(.move(.down))
        case .character(18): change = .redo  // Ctrl-R
        default:
            switch key.typedText {
            case "h": change = .box(.move(.left))
            case "l": change = .box(.move(.right))
            case "k": change = .box(.move(.up))
            case "j": change = .box(.move(.down))
            case "H": change = .box(.resize(.left))
            case "L": change = .box(.resize(.right))
            case "K": change = .box(.resize(.up))
            case "J": change = .box(.resize(.down))
            case "c": change = .cycleColour
            case "u": change = .undo
            case let text?: change = Self.markKeys.firstIndex(of: text).map { .kind(Mark.Kind.allCases[$0]) }
            case nil: change = nil
            }
        }
        return change.map { .edit(.markup($0)) }
    }

    /// "added a red rectangle on page 2 at 100,120, 200×50 pt (1 mark)": where the mark went, in
    /// the units it is saved in.
    static func added(_ mark: Mark, onPage: Bool, count: Int) -> String {
        let box = mark.box
        func whole(_ value: Double) -> Int { Int(value.rounded()) }
        let place = (onPage ? " on page \(mark.page + 1)" : "") + " at \(whole(box.x)),\(whole(box.y)), \(whole(box.width))×\(whole(box.height)) \(onPage ? "pt" : "px")"
        let note = mark.note.map { " \"\($0)\"" } ?? ""
        return "added a \(mark.colour.rawValue) \(mark.kind.rawValue)\(note)\(place) (\(count == 1 ? "1 mark" : "\(count) marks"))"
    }

    /// The keys of the kinds, in `Mark.Kind.allCases` order: rectangle, ellipse, arrow,
    /// highlight, note, freehand.
    public static let markKeys = ["1", "2", "3", "4", "5", "6"]

    mutating func reduceMarkup(_ action: QuickEditAction) -> [BrowserEffect] {
        switch action {
        case .startMarkup:
            guard let edit = quickLook.edit, edit.isEmpty, edit.crop == nil else {
                message = "Markup draws on the file as it is: save the turn or crop first, or Esc and start again"
                return []
            }
            guard markupCanvas != nil else {
                message = "the \(edit.target == .document ? "page" : "picture")'s size is not known yet: m again in a moment"
                return []
            }
            quickLook.edit?.startMarkup()
        case .markup(let change):
            guard let canvas = markupCanvas else {
                message = "this page's size is not known yet: a moment"
                return []
            }
            let before = quickLook.edit?.markup?.marks.count ?? 0
            if let said = quickLook.edit?.applyMarkup(change, on: canvas, now: now) {
                message = said
            } else if let marks = quickLook.edit?.markup?.marks, marks.count > before, let mark = marks.last, change != .redo {
                message = Self.added(mark, onPage: quickLook.edit?.target == .document, count: marks.count)
            }
        default: break
        }
        return []
    }
}

extension QuickEdit {
    mutating func startMarkup() { markup = MarkupEditor() }

    mutating func applyMarkup(_ action: MarkupEditor.Action, on canvas: MarkupEditor.Canvas, now: Int64) -> String? {
        markup?.apply(action, on: canvas, now: now)
    }
}
