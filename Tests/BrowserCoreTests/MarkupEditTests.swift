import Testing
@testable import BrowserCore
import ThumbnailKit

/// Quick Look's Markup as the state decides it: `e` then `m` on a photo or a PDF page, marks
/// added by the mouse and by keys, in the kind and colour chosen, undone and redone, a note's
/// text typed, and all of them saved in one `annotate` edit; on a PDF in the page's points.
@Suite struct MarkupEditTests {
    private let enter = KeyPress.character(13)

    private func photo(size: PixelSize? = PixelSize(width: 4000, height: 3000)) -> BrowserState {
        var state = BrowserState.quickLook(on: "photo.jpg")
        if let size { state.apply(.quickLookFacts(path: "/d/photo.jpg", QuickLookFacts(pictureSize: size))) }
        state.press("e")
        state.press("m")
        return state
    }

    /// A PDF whose two pages are letter size (612×792 points), the second turned to landscape.
    private func document() -> BrowserState {
        var state = BrowserState.quickLook(on: "doc.pdf")
        state.apply(.quickLookFacts(path: "/d/doc.pdf", QuickLookFacts(pageCount: 2, pagePoints: [0: PixelSize(width: 612, height: 792)])))
        state.apply(.quickLookFacts(path: "/d/doc.pdf", QuickLookFacts(pagePoints: [1: PixelSize(width: 792, height: 612)])))
        return state
    }

    @Test func aDragAddsARectangleInThePicturesPixelsAndEnterSavesItAsOneAnnotateEdit() {
        var unknown = photo(size: nil)
        #expect(unknown.quickEdit?.markup == nil && unknown.message?.contains("not known yet") == true)
        var state = photo()
        #expect(state.quickEdit?.markup?.kind == .rectangle && state.quickEdit?.markup?.colour == .red)
        state.apply(.edit(.markup(.press(x: 0.25, y: 0.5))))
        state.apply(.edit(.markup(.drag(x: 0.4, y: 0.6))))
        #expect(state.quickEdit?.markup?.shown(page: 0).count == 1, "the mark under way is drawn before the button is let go")
        #expect(state.quickEdit?.markup?.marks.isEmpty == true)
        state.apply(.edit(.markup(.release(x: 0.5, y: 0.75))))
        let rectangle = Mark(kind: .rectangle, box: Mark.Box(x: 1000, y: 1500, width: 1000, height: 750), colour: .red)
        #expect(state.quickEdit?.markup?.marks == [rectangle])
        #expect(state.message == "added a red rectangle at 1000,1500, 1000×750 px (1 mark)")
        #expect(state.quickEdit?.summary(duration: nil) == "1 mark")
        state.apply(.key(enter, .move(.open)))
        #expect(state.quickEdit?.step == .askingHowToSave)
        #expect(state.press("c") == [.saveEdit(path: "/d/photo.jpg", edits: [.annotate(marks: [rectangle])], copy: true)])
    }

    @Test func kindsAndColoursByKeysAndAFreehandStrokeKeepsItsPoints() {
        var state = photo()
        state.press("2")
        state.press("c")
        state.press("c")
        #expect(state.quickEdit?.markup?.kind == .ellipse && state.quickEdit?.markup?.colour == .green)
        state.apply(.edit(.markup(.press(x: 0, y: 0))))
        state.apply(.edit(.markup(.release(x: 0.1, y: 0.1))))
        state.press("6")
        state.apply(.edit(.markup(.press(x: 0.5, y: 0.5))))
        state.apply(.edit(.markup(.drag(x: 0.6, y: 0.5))))
        state.apply(.edit(.markup(.drag(x: 0.6, y: 0.5))))
        state.apply(.edit(.markup(.release(x: 0.6, y: 0.6))))
        state.press("3")
        state.apply(.edit(.markup(.press(x: 0.9, y: 0.9))))
        state.apply(.edit(.markup(.release(x: 0.8, y: 0.8))))
        let marks = state.quickEdit?.markup?.marks ?? []
        #expect(marks.map(\.kind) == [.ellipse, .freehand, .arrow] && marks.allSatisfy { $0.colour == .green })
        #expect(marks[1].points == [Mark.Point(x: 2000, y: 1500), Mark.Point(x: 2400, y: 1500), Mark.Point(x: 2400, y: 1800)],
                "every place the pointer went, each once")
        #expect(marks[2].points == [Mark.Point(x: 3600, y: 2700), Mark.Point(x: 3200, y: 2400)], "the arrow points where the drag went")
        state.apply(.edit(.markup(.press(x: 0.3, y: 0.3))))
        state.apply(.edit(.markup(.release(x: 0.3, y: 0.3))))
        #expect(state.quickEdit?.markup?.marks.count == 3 && state.message?.contains("drag to draw") == true, "a click draws nothing")
    }

    @Test func keysPlaceABoxThatEnterAddsAndUndoRedoTakeMarksAway() {
        var state = photo()
        state.press("4")
        state.press("l")
        // A quarter of the picture each way, centred, then one step (20 px) right.
        #expect(state.quickEdit?.markup?.placing?.rect == PixelRect(x: 1520, y: 1125, width: 1000, height: 750))
        state.apply(.tick(now: 1_000_000_000))
        state.press("J")
        state.apply(.key(enter, .move(.open)))
        let highlight = Mark(kind: .highlight, box: Mark.Box(x: 1520, y: 1125, width: 1000, height: 770), colour: .red)
        #expect(state.quickEdit?.markup?.marks == [highlight] && state.quickEdit?.markup?.placing == nil, "Enter adds the box, not save")
        #expect(state.quickEdit?.step == .choosing)
        state.press("6")
        state.press("h")
        state.apply(.key(enter, .move(.open)))
        #expect(state.message == "a freehand stroke is drawn with the mouse" && state.quickEdit?.markup?.marks.count == 1)
        state.apply(.key(.escape, nil))
        #expect(state.quickEdit?.markup?.placing == nil && state.quickEdit != nil, "Esc drops the box first")
        state.press("u")
        #expect(state.quickEdit?.markup?.marks.isEmpty == true)
        state.apply(.key(enter, .move(.open)))
        #expect(state.quickEdit?.step == .choosing && state.message?.contains("no marks yet") == true)
        state.apply(.key(.character(18), nil))  // Ctrl-R
        #expect(state.quickEdit?.markup?.marks == [highlight])
        #expect(state.apply(.key(.escape, nil)).isEmpty)
        #expect(state.quickEdit == nil && state.message == "left Markup: 1 mark not written", "Esc leaves, nothing written")
    }

    @Test func aNotesTextIsTypedBeforeItIsAddedAndItsKeysAreText() {
        var state = photo()
        state.press("5")
        state.apply(.edit(.markup(.press(x: 0.1, y: 0.1))))
        state.apply(.edit(.markup(.release(x: 0.3, y: 0.2))))
        #expect(state.quickEdit?.markup?.noteText != nil && state.quickEdit?.markup?.marks.isEmpty == true)
        for text in ["h", "i", " ", "u", "c"] { state.press(text) }
        state.apply(.key(.character(127), nil))
        #expect(state.quickEdit?.markup?.noteText?.text == "hi u", "u and c are letters of the note here")
        state.apply(.key(enter, .move(.open)))
        #expect(state.quickEdit?.markup?.marks.first?.note == "hi u" && state.quickEdit?.markup?.marks.first?.kind == .note)
        #expect(state.quickEdit?.step == .choosing)
        state.apply(.edit(.markup(.press(x: 0.5, y: 0.5))))
        state.apply(.edit(.markup(.release(x: 0.7, y: 0.7))))
        state.apply(.key(.escape, nil))
        #expect(state.quickEdit?.markup?.marks.count == 1 && state.quickEdit != nil, "Esc drops the note, the editor stays")
    }

    @Test func onAPDFMarksAreInThePagesPointsOnThePageShown() {
        let canvas = MarkupEditor.Canvas(page: 1, size: PixelSize(width: 612, height: 792))
        // Page 2 drawn 918×1188 pixels: 1.5 pixels a point.
        #expect(canvas.point(pixelX: 150, pixelY: 300, in: PixelSize(width: 918, height: 1188)) == Mark.Point(x: 100, y: 200))
        var state = document()
        state.press("e")
        state.press("m")
        #expect(state.markupCanvas == MarkupEditor.Canvas(page: 0, size: PixelSize(width: 612, height: 792)))
        _ = state.apply(.key(.special(.pageDown), .move(.pageDown)))
        #expect(state.quickLook.page == 1 && state.quickEdit?.markup != nil, "paging goes on while marking")
        state.apply(.edit(.markup(.press(x: 0.25, y: 0.5))))
        state.apply(.edit(.markup(.release(x: 0.5, y: 1))))
        let square = Mark(kind: .rectangle, page: 1, box: Mark.Box(x: 198, y: 306, width: 198, height: 306), colour: .red)
        #expect(state.quickEdit?.markup?.marks == [square], "page 2 is 792×612 points")
        #expect(state.message == "added a red rectangle on page 2 at 198,306, 198×306 pt (1 mark)")
        #expect(state.quickEdit?.markup?.shown(page: 0).isEmpty == true && state.quickEdit?.markup?.shown(page: 1) == [square])
        #expect(state.quickEdit?.edits(duration: nil) == [.annotate(marks: [square])])
    }

    @Test func markupStartsOnlyOnTheFileAsItIsAndNotBeforeThePagesSizeIsKnown() {
        var state = photo()
        state.apply(.key(.escape, nil))
        state.press("e")
        state.press("r")
        state.press("m")
        #expect(state.quickEdit?.markup == nil && state.message?.contains("save the turn or crop first") == true)
        var pdf = BrowserState.quickLook(on: "doc.pdf")
        pdf.apply(.quickLookFacts(path: "/d/doc.pdf", QuickLookFacts(pageCount: 2)))
        pdf.press("e")
        pdf.press("m")
        #expect(pdf.quickEdit?.markup == nil && pdf.message == "the page's size is not known yet: m again in a moment")
    }
}
