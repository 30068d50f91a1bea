import ThumbnailKit

/// Quick Look's Markup (`e` then `m` on a photo or a PDF page): the marks drawn so far, the kind
/// and colour of the next one, and the one being drawn — by a mouse drag (a freehand stroke keeps
/// every point) or by keys placing a box (`RectangleEditor`), which Enter adds. A note's text is
/// typed in a `TextPrompt` before the note is added. Every mark added can be undone and redone.
///
/// Marks are in the units of a `Canvas`: a picture's pixels as shown, or a page's points as shown
/// (the page's crop box after its /Rotate) — what `Mark` and `FileEdit.annotate` take.
public struct MarkupEditor: Sendable, Equatable {
    /// What a mark is measured on: one page (0 for a picture) of this size.
    public struct Canvas: Sendable, Equatable {
        public let page: Int
        /// Pixels of the picture, or points of the page, as shown.
        public let size: PixelSize

        public init(page: Int = 0, size: PixelSize) {
            self.page = page
            self.size = PixelSize(width: max(1, size.width), height: max(1, size.height))
        }

        /// A point given as fractions (0…1) of the picture as drawn, in the canvas's units.
        public func point(x: Double, y: Double) -> Mark.Point {
            func clamp(_ value: Double) -> Double { value.isFinite ? min(max(0, value), 1) : 0 }
            return Mark.Point(x: clamp(x) * Double(size.width), y: clamp(y) * Double(size.height))
        }

        /// A pixel of the page's (or picture's) picture, of `pictureSize`, in the canvas's units:
        /// a page drawn at 918×1188 pixels for its 612×792 points has 1.5 pixels a point.
        public func point(pixelX: Double, pixelY: Double, in pictureSize: PixelSize) -> Mark.Point {
            point(x: pixelX / Double(max(1, pictureSize.width)), y: pixelY / Double(max(1, pictureSize.height)))
        }
    }

    public enum Action: Sendable, Equatable {
        case kind(Mark.Kind)
        case cycleColour
        /// A key placing or sizing the box the keyboard draws with.
        case box(RectangleEditor.Action)
        /// Enter while a box is placed: it becomes a mark.
        case add
        /// Esc while a box is placed: it goes.
        case stopPlacing
        /// The mouse, at fractions (0…1) of the picture as drawn.
        case press(x: Double, y: Double)
        case drag(x: Double, y: Double)
        case release(x: Double, y: Double)
        case undo
        case redo
        /// Typing a note's text.
        case note(PromptAction)
    }

    public internal(set) var kind = Mark.Kind.rectangle
    public internal(set) var colour = Mark.Colour.red
    /// The marks added, in order, on every page.
    public internal(set) var marks: [Mark] = []
    var redoStack: [Mark] = []
    /// The box the keys place, on `placingPage`: a quarter of the page each way to start, centred.
    public internal(set) var placing: RectangleEditor?
    var placingPage = 0
    /// A mouse drag under way: where it went, in canvas units, on `strokePage`.
    public internal(set) var stroke: [Mark.Point]?
    var strokePage = 0
    /// A note drawn and waiting for its text, which `noteText` is typing.
    public internal(set) var pendingNote: Mark?
    public internal(set) var noteText: TextPrompt?

    public init() {}

    /// The marks to draw on `page` over the picture: those added, then the one under way.
    public func shown(page: Int) -> [Mark] {
        var shown = marks.filter { $0.page == page }
        if let pendingNote, pendingNote.page == page { shown.append(pendingNote) }
        if let stroke, strokePage == page, let mark = drawn(stroke, page: page) { shown.append(mark) }
        if let placing, placingPage == page { shown.append(placed(placing, page: page)) }
        return shown
    }

    /// Does `action` on `canvas` (the page shown); the answer is a sentence for the user, if any.
    public mutating func apply(_ action: Action, on canvas: Canvas, now: Int64) -> String? {
        switch action {
        case .kind(let kind): self.kind = kind
        case .cycleColour:
            let all = Mark.Colour.allCases
            colour = all[(all.firstIndex(of: colour)! + 1) % all.count]
        case .box(let change):
            if placing == nil || placingPage != canvas.page || placing?.size != canvas.size {
                var editor = RectangleEditor(size: canvas.size)
                let (width, height) = (max(1, canvas.size.width / 4), max(1, canvas.size.height / 4))
                editor.rect = PixelRect(x: (canvas.size.width - width) / 2, y: (canvas.size.height - height) / 2, width: width, height: height)
                (placing, placingPage) = (editor, canvas.page)
            }
            placing?.apply(change, now: now)
        case .stopPlacing: placing = nil
        case .add:
            guard let placing, placingPage == canvas.page else { return nil }
            guard kind != .freehand else { return "a freehand stroke is drawn with the mouse" }
            self.placing = nil
            return add(placed(placing, page: canvas.page))
        case .press(let x, let y):
            (stroke, strokePage, placing) = ([canvas.point(x: x, y: y)], canvas.page, nil)
        case .drag(let x, let y):
            guard stroke != nil, strokePage == canvas.page else { return nil }
            stroke?.append(canvas.point(x: x, y: y))
        case .release(let x, let y):
            guard var points = stroke, strokePage == canvas.page else { return nil }
            points.append(canvas.point(x: x, y: y))
            stroke = nil
            // (A note's text is asked next: its box must have room.)
            guard let mark = drawn(points, page: canvas.page), mark.kind == .note ? mark.box.width > 0 && mark.box.height > 0 : mark.problem == nil else {
                return "drag to draw: press, move and let go"
            }
            return add(mark)
        case .undo:
            guard let last = marks.popLast() else { return "nothing to undo" }
            redoStack.append(last)
        case .redo:
            guard let next = redoStack.popLast() else { return "nothing to redo" }
            marks.append(next)
        case .note(let typing): return typeNote(typing)
        }
        return nil
    }

    /// A new mark: a note first asks for its text.
    private mutating func add(_ mark: Mark) -> String? {
        if mark.kind == .note {
            (pendingNote, noteText) = (mark, TextPrompt(purpose: .note))
            return nil
        }
        marks.append(mark)
        redoStack.removeAll()
        return nil
    }

    private mutating func typeNote(_ action: PromptAction) -> String? {
        switch action {
        case .input(let text): noteText?.insert(text)
        case .backspace: noteText?.backspace()
        case .move(let offset): noteText?.move(by: offset)
        case .home: noteText?.moveToStart()
        case .end: noteText?.moveToEnd()
        case .cancel: (pendingNote, noteText) = (nil, nil)
        case .accept:
            guard var note = pendingNote, let text = noteText?.text else { return nil }
            (pendingNote, noteText) = (nil, nil)
            guard !text.isEmpty else { return "no text: the note was not added" }
            note.note = text
            marks.append(note)
            redoStack.removeAll()
        }
        return nil
    }

    /// The box the keys placed, as a mark of the kind chosen (an arrow along its diagonal).
    private func placed(_ editor: RectangleEditor, page: Int) -> Mark {
        let rect = editor.rect
        return Mark(kind: kind, page: page, box: Mark.Box(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height)),
                    colour: colour)
    }

    /// What a drag through `points` draws: a freehand stroke through all of them, an arrow from
    /// the first to the last, any other kind in the box with those two as corners.
    private func drawn(_ points: [Mark.Point], page: Int) -> Mark? {
        guard let first = points.first, let last = points.last, let around = Mark.Box.around([first, last]) else { return nil }
        switch kind {
        case .freehand:
            var kept: [Mark.Point] = []
            for point in points where kept.last != point { kept.append(point) }
            return Mark(kind: .freehand, page: page, box: Mark.Box.around(kept) ?? around, colour: colour, points: kept)
        case .arrow:
            return Mark(kind: .arrow, page: page, box: around, colour: colour, points: first == last ? [] : [first, last])
        default:
            return Mark(kind: kind, page: page, box: around, colour: colour)
        }
    }
}
