import Testing
@testable import BrowserCore
@testable import FileSystemKit
import ThumbnailKit

/// Quick Look's edits as the state decides them: which files offer which edits, what the keys do
/// in each step, what is saved, and that nothing is lost on the way.
@Suite struct QuickEditTests {
    private func quickLook(_ name: String) -> BrowserState { BrowserState.quickLook(on: name) }

    private func press(_ text: String, _ command: Command? = nil, in state: inout BrowserState) -> [BrowserEffect] {
        state.apply(.key(.character(text.unicodeScalars.first!.value), command))
    }

    private let enter = KeyPress.character(13)

    @Test func filesOfferTheEditsThatSuitThem() {
        #expect(QuickEdit.target(for: Entry(name: "a.JPG"), showing: .picture) == .picture)
        #expect(QuickEdit.target(for: Entry(name: "a.heic"), showing: .picture) == .picture)
        #expect(QuickEdit.target(for: Entry(name: "a.pdf"), showing: .pages) == .document)
        #expect(QuickEdit.target(for: Entry(name: "a.mp4"), showing: .timeline) == .video)
        #expect(QuickEdit.target(for: Entry(name: "a.flac"), showing: .timeline) == .song)
        #expect(QuickEdit.target(for: Entry(name: "a.gif"), showing: .timeline) == nil, "an animation is not edited")
        #expect(QuickEdit.target(for: Entry(name: "a.svg"), showing: .picture) == nil, "a drawing is not a photo")
        #expect(QuickEdit.target(for: Entry(name: "notes.txt"), showing: .text) == nil)
        var text = quickLook("notes.txt")
        _ = press("e", .list(.extensions), in: &text)
        #expect(text.quickEdit == nil && text.message?.contains("not this file") == true)
    }

    @Test func aPhotoTurnsAndMirrorsAsShownAndSavesOneLosslessEdit() {
        var state = quickLook("photo.jpg")
        _ = press("e", .list(.extensions), in: &state)
        #expect(state.quickEdit?.target == .picture && state.quickEdit?.step == .choosing)
        _ = press("r", .files(.rename), in: &state)
        #expect(state.quickEdit!.shownTurn() == QuickEdit.Turn(quarterTurns: 1, mirrored: false))
        _ = press("f", in: &state)
        // Mirroring what is shown (turned right) = mirror first, then turn left.
        #expect(state.quickEdit!.shownTurn() == QuickEdit.Turn(quarterTurns: 3, mirrored: true))
        #expect(state.quickEdit!.edits(duration: nil) == [.rotate(quarterTurns: 3, flip: true)])
        _ = press("f", in: &state)
        #expect(state.quickEdit!.shownTurn() == QuickEdit.Turn(quarterTurns: 1, mirrored: false), "mirrored back")
        _ = press("l", .move(.right), in: &state)
        #expect(state.quickEdit!.isEmpty, "turned back: nothing to save")
        state.apply(.key(enter, .move(.open)))
        #expect(state.quickEdit?.step == .choosing && state.message == "nothing to save yet")
        #expect(state.overlay == .quickLook, "Enter does not close Quick Look while editing")
    }

    @Test func enterAsksThenSavesAndTheResultIsShownAfresh() {
        var state = quickLook("photo.jpg")
        _ = press("e", in: &state)
        _ = press("r", in: &state)
        state.apply(.key(enter, .move(.open)))
        #expect(state.quickEdit?.step == .askingHowToSave)
        #expect(press("x", .files(.cut), in: &state).isEmpty && state.clipboard == nil, "other keys wait for the answer")
        #expect(press("r", in: &state) == [.saveEdit(path: "/d/photo.jpg", edits: [.rotate(quarterTurns: 1, flip: false)], copy: false)])
        #expect(state.quickEdit?.step == .saving)
        _ = state.apply(.key(.special(.right), .move(.right)))
        _ = press(" ", .screen(.quickLook), in: &state)
        #expect(state.selectedPath == "/d/photo.jpg" && state.overlay == .quickLook, "while saving, the file and Quick Look stay")
        let item = TrashCan.Item(originalPath: "/d/photo.jpg", trashedPath: "/t/files/photo.jpg", infoPath: "/t/info/photo.jpg.trashinfo")
        let effects = state.apply(.editSaved(EditOutcome(path: "/d/photo.jpg", output: "/d/photo.jpg", trashed: item, summary: "saved")))
        #expect(Array(effects.prefix(2)) == [BrowserEffect.forgetPictures(path: "/d/photo.jpg"), .forgetPictures(path: "/d/photo.jpg")])
        #expect(effects.contains(BrowserEffect.list(folder: "/d", ticket: state.ticket)), "the folder is listed again")
        #expect(state.quickEdit == nil && state.overlay == .quickLook && state.message == "saved")
        // U: the edited file aside, the original back.
        #expect(state.apply(.files(.restoreTrashed)) == [.restoreReplaced(original: item, edited: "/d/photo.jpg")])
        #expect(state.lastReplaced == nil)
    }

    @Test func escGoesBackOneStepAndCancelsASave() {
        var state = quickLook("photo.jpg")
        _ = press("e", in: &state)
        _ = press("r", in: &state)
        state.apply(.key(enter, .move(.open)))
        state.apply(.key(.escape, nil))
        #expect(state.quickEdit?.step == .choosing && state.quickEdit!.shownTurn() == QuickEdit.Turn(quarterTurns: 1, mirrored: false), "back to editing, the turn kept")
        state.apply(.key(enter, .move(.open)))
        _ = press("c", in: &state)
        #expect(state.apply(.key(.escape, nil)) == [.cancelEdit])
        state.apply(.editFailed(path: "/d/photo.jpg", reason: "cancelled; the original is as it was"))
        #expect(state.quickEdit?.step == .choosing && state.message == "not saved: cancelled; the original is as it was")
        #expect(state.apply(.key(.special(.right), .move(.right))).isEmpty && state.selectedPath == "/d/photo.jpg",
                "another file would lose the edit: not while editing")
        state.apply(.key(.escape, nil))
        #expect(state.quickEdit == nil && state.overlay == .quickLook, "Esc leaves editing, nothing written")
        state.apply(.key(.escape, nil))
        #expect(state.overlay == nil)
    }

    @Test func pdfPagesTurnOneByOneOrAllTogether() {
        var state = quickLook("book.pdf")
        state.apply(.quickLookFacts(path: "/d/book.pdf", QuickLookFacts(pageCount: 10)))
        _ = press("e", in: &state)
        _ = press("r", in: &state)  // page 1
        state.apply(.key(.special(.down), .move(.down)))
        state.apply(.key(.special(.down), .move(.down)))
        _ = press("l", in: &state)  // page 3
        state.apply(.key(.special(.down), .move(.down)))
        _ = press("r", in: &state)  // page 4
        _ = press("R", in: &state)  // every page
        #expect(state.quickEdit!.shownTurn(page: 0) == QuickEdit.Turn(quarterTurns: 2, mirrored: false) && state.quickEdit!.shownTurn(page: 2) == QuickEdit.Turn(quarterTurns: 0, mirrored: false)
                && state.quickEdit!.shownTurn(page: 5) == QuickEdit.Turn(quarterTurns: 1, mirrored: false))
        #expect(state.quickEdit!.edits(duration: nil) == [.rotatePages(pages: [], quarterTurns: 1), .rotatePages(pages: [0, 3], quarterTurns: 1),
                                                         .rotatePages(pages: [2], quarterTurns: 3)])
        #expect(state.quickEdit!.summary(duration: nil) == "every page turned right, pages 1, 4 turned right, page 3 turned left")
    }

    @Test func aVideoIsTrimmedAtThePositionBarAndTurned() {
        var state = quickLook("clip.mp4")
        state.apply(.quickLookFacts(path: "/d/clip.mp4", QuickLookFacts(duration: 60)))
        _ = press("e", in: &state)
        _ = press("1", in: &state)
        _ = press("0", in: &state)
        state.apply(.key(enter, .move(.open)))
        #expect(state.quickLook.seconds == 10 && state.quickEdit?.step == .choosing, "Enter after digits still jumps")
        _ = press("i", in: &state)
        #expect(state.message?.contains("keyframe") == true)
        state.apply(.key(.special(.down), .move(.down)))
        state.apply(.key(.special(.down), .move(.down)))
        _ = press("o", in: &state)
        _ = press("r", in: &state)
        #expect(state.quickEdit!.edits(duration: 60) == [.trim(start: 10, end: 20), .rotateVideo(quarterTurns: 1)])
        #expect(state.quickEdit!.summary(duration: 60) == "turned right, 0:10.0–0:20.0 kept")
        // An end before the start is refused with the reason, not saved.
        state.apply(.key(.special(.up), .move(.up)))
        state.apply(.key(.special(.up), .move(.up)))
        state.apply(.key(.special(.up), .move(.up)))
        _ = press("o", in: &state)
        state.apply(.key(enter, .move(.open)))
        #expect(state.quickEdit?.step == .choosing && state.message?.contains("end must come after the start") == true)
        _ = press("x", in: &state)
        _ = press("l", in: &state)
        #expect(state.quickEdit!.isEmpty)
    }

    @Test func aSongOnlyTrims() {
        var state = quickLook("song.flac")
        state.apply(.quickLookFacts(path: "/d/song.flac", QuickLookFacts(duration: 200)))
        _ = press("e", in: &state)
        _ = press("r", .files(.rename), in: &state)
        #expect(state.quickEdit!.isEmpty && state.prompt == nil, "r neither turns a song nor renames it")
        state.apply(.key(.special(.pageDown), .move(.pageDown)))
        _ = press("o", in: &state)
        #expect(state.quickEdit!.edits(duration: 200) == [.trim(start: 0, end: 30)])
    }

    @Test func trashingAfterAnEditMakesUndoTheTrash() {
        var state = quickLook("photo.jpg")
        let item = TrashCan.Item(originalPath: "/d/photo.jpg", trashedPath: "/t/files/photo.jpg", infoPath: "/t/info/photo.jpg.trashinfo")
        state.apply(.editSaved(EditOutcome(path: "/d/photo.jpg", output: "/d/photo.jpg", trashed: item, summary: "saved")))
        let other = TrashCan.Item(originalPath: "/d/z.txt", trashedPath: "/t/files/z.txt", infoPath: "/t/info/z.txt.trashinfo")
        state.apply(.trashed([other]))
        #expect(state.apply(.files(.restoreTrashed)) == [.restore([other])])
    }
}
