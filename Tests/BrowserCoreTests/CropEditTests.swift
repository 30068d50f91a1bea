import Testing
@testable import BrowserCore
import ThumbnailKit

/// Quick Look's crop as the state decides it: `e` then `c` lays a rectangle over the picture
/// (once its size is known), its keys never leave the file, Enter saves the same way as the
/// other edits, a turn before the crop is carried back, HEIC asks before a lossy save.
@Suite struct CropEditTests {
    private func quickLook(_ name: String, size: PixelSize? = PixelSize(width: 4000, height: 3000)) -> BrowserState {
        var state = BrowserState.quickLook(on: name)
        if let size { state.apply(.quickLookFacts(path: "/d/" + name, QuickLookFacts(pictureSize: size))) }
        return state
    }

    private let enter = KeyPress.character(13)

    @Test func cLaysARectangleOverThePictureOnlyOnceItsSizeIsKnown() {
        var unknown = quickLook("photo.jpg", size: nil)
        unknown.press("e")
        unknown.press("c")
        #expect(unknown.quickEdit?.crop == nil && unknown.message?.contains("size is not known") == true)
        var state = quickLook("photo.jpg")
        state.press("e")
        state.press("c")
        #expect(state.quickEdit?.crop?.size == PixelSize(width: 4000, height: 3000) && state.quickEdit?.crop?.isWhole == true)
        state.apply(.key(enter, .move(.open)))
        #expect(state.quickEdit?.step == .choosing && state.message?.contains("whole picture") == true, "nothing to crop yet")
    }

    @Test func itsKeysMoveTheRectangleNotTheFileAndEnterSavesACopy() {
        var state = quickLook("photo.jpg")
        state.press("e")
        state.press("c")
        state.press("H", .files(.rename))
        state.apply(.tick(now: 1_000_000_000))
        state.press("K")
        state.apply(.tick(now: 2_000_000_000))
        _ = state.apply(.key(.special(.right), .move(.right)))
        #expect(state.selected?.name == "photo.jpg", "→ moves the rectangle, not to the next file")
        #expect(state.quickEdit?.crop?.rect == PixelRect(x: 20, y: 0, width: 3980, height: 2980))
        state.press("u")
        #expect(state.quickEdit?.crop?.rect.x == 0)
        state.apply(.key(.character(18), nil))  // Ctrl-R
        #expect(state.quickEdit?.crop?.rect.x == 20)
        state.press("a")
        #expect(state.quickEdit?.crop?.ratio == .original)
        #expect(state.quickEdit?.summary(duration: nil).contains("cropped to") == true)
        state.apply(.key(enter, .move(.open)))
        #expect(state.quickEdit?.step == .askingHowToSave)
        let rect = state.quickEdit!.crop!.rect
        #expect(state.press("c") == [.saveEdit(path: "/d/photo.jpg", edits: [.crop(rect, allowLossy: false)], copy: true)])
    }

    @Test func escLeavesWithoutWritingAndTheMouseDragsTheRectangle() {
        var state = quickLook("photo.jpg")
        state.press("e")
        state.press("c")
        state.apply(.edit(.rectangle(.press(x: 1, y: 1))))
        state.apply(.edit(.rectangle(.release(x: 0.5, y: 0.5))))
        #expect(state.quickEdit?.crop?.rect == PixelRect(x: 0, y: 0, width: 2000, height: 1500))
        #expect(state.apply(.key(.escape, nil)).isEmpty)
        #expect(state.quickEdit == nil && state.overlay == .quickLook, "Esc leaves the edit, nothing saved")
    }

    @Test func aTurnBeforeTheCropIsCarriedBackToThePictureAsTheFileShowsIt() {
        var state = quickLook("photo.jpg")
        state.press("e")
        state.press("r")
        state.press("c")
        // Turned right, the 4000×3000 picture is 3000×4000 on screen.
        #expect(state.quickEdit?.crop?.size == PixelSize(width: 3000, height: 4000))
        state.apply(.edit(.rectangle(.press(x: 0.5, y: 0.5))))
        state.apply(.edit(.rectangle(.release(x: 1, y: 0.75))))
        // On screen x 1500…3000, y 2000…3000: before the right turn, that is the picture's top
        // left part, x 2000…3000 of the picture's width from its top, y 0…1500.
        #expect(state.quickEdit?.crop?.rect == PixelRect(x: 1500, y: 2000, width: 1500, height: 1000))
        #expect(state.quickEdit?.edits(duration: nil) == [.crop(PixelRect(x: 2000, y: 0, width: 1000, height: 1500), allowLossy: false),
                                                          .rotate(quarterTurns: 1, flip: false)])
        let mirrored = QuickEdit.Turn(quarterTurns: 0, mirrored: true)
        #expect(mirrored.unturn(PixelRect(x: 0, y: 10, width: 100, height: 20), turnedSize: PixelSize(width: 400, height: 300)) == PixelRect(x: 300, y: 10, width: 100, height: 20))
    }

    @Test func aHEICCropAsksBeforeALossySave() {
        var state = quickLook("photo.heic")
        state.press("e")
        state.press("c")
        #expect(state.message?.contains("loses some quality") == true)
        state.press("K")
        state.apply(.key(enter, .move(.open)))
        #expect(state.quickEdit?.step == .askingLossy)
        state.press("n")
        #expect(state.quickEdit?.step == .choosing, "no: back to the rectangle")
        state.apply(.key(enter, .move(.open)))
        state.press("y")
        #expect(state.quickEdit?.step == .askingHowToSave)
        let effects = state.press("r")
        guard case .saveEdit(_, let edits, false)? = effects.first, case .crop(_, true)? = edits.first else {
            Issue.record("a replacement allowed to lose quality: \(effects)")
            return
        }
    }
}

extension CropEditTests {
    @Test func theWheelAndClicksDoNotTakeQuickLookToAnotherFileMidEdit() {
        var state = quickLook("photo.jpg")
        state.press("e")
        state.press("c")
        state.apply(.navigation(.scroll(1)))
        state.apply(.navigation(.click(row: 3, column: 3)))
        #expect(state.selected?.name == "photo.jpg" && state.quickEdit?.crop != nil, "the edit stays on its file")
        #expect(state.message == "Enter saves the edit, Esc leaves it")
    }
}
