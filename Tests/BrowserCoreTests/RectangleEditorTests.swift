import Testing
@testable import BrowserCore
import ThumbnailKit

/// The rectangle over a picture (Quick Look's crop, markup's boxes): keys move and resize it
/// with a step that grows while held, ratios hold, the mouse grabs edges, insides and new
/// corners, the picture's edges hold it in, and undo and redo walk its history.
@Suite struct RectangleEditorTests {
    /// 4000×3000: the step is 20 pixels (a two-hundredth of the longer side).
    private func editor() -> RectangleEditor { RectangleEditor(size: PixelSize(width: 4000, height: 3000)) }
    private let second: Int64 = 1_000_000_000

    @Test func itStartsAsTheWholePictureAndKeysResizeThenMoveByTheStep() {
        var box = editor()
        #expect(box.isWhole && box.rect == PixelRect(x: 0, y: 0, width: 4000, height: 3000))
        box.apply(.resize(.left), now: 0)
        box.apply(.resize(.up), now: second)
        #expect(box.rect == PixelRect(x: 0, y: 0, width: 3980, height: 2980))
        box.apply(.move(.right), now: 2 * second)
        box.apply(.move(.down), now: 3 * second)
        #expect(box.rect == PixelRect(x: 20, y: 20, width: 3980, height: 2980), "moved to the picture's right and bottom edges")
        box.apply(.move(.right), now: 4 * second)
        box.apply(.resize(.right), now: 5 * second)
        #expect(box.rect == PixelRect(x: 20, y: 20, width: 3980, height: 2980), "the picture's edges hold it in")
        box.apply(.move(.left), now: 6 * second)
        #expect(box.rect.x == 0)
    }

    @Test func aHeldKeyGrowsTheStepAndAPauseStartsItOver() {
        var box = editor()
        for press in 0..<12 { box.apply(.resize(.left), now: Int64(press) * 30_000_000) }
        // Four presses at 20, four at 40, four at 80.
        #expect(box.rect.width == 4000 - 4 * 20 - 4 * 40 - 4 * 80)
        let width = box.rect.width
        box.apply(.resize(.left), now: 12 * 30_000_000 + RectangleEditor.repeatInterval + 1)
        #expect(box.rect.width == width - 20, "after a pause the step is small again")
        box.apply(.resize(.up), now: 12 * 30_000_000 + RectangleEditor.repeatInterval + 2)
        #expect(box.rect.height == 3000 - 20, "another key starts its own step")
    }

    @Test func ratiosCycleAndHoldWhileResizing() {
        var box = editor()
        var names: [String] = []
        for _ in 0..<6 {
            box.apply(.cycleRatio, now: 0)
            names.append(box.ratio.name)
        }
        #expect(names == ["original", "1:1", "4:3", "3:2", "16:9", "free"])
        box.apply(.reset, now: 0)
        box.apply(.cycleRatio, now: 0)  // original: 4:3 here
        box.apply(.cycleRatio, now: 0)  // 1:1
        #expect(box.rect == PixelRect(x: 0, y: 0, width: 3000, height: 3000), "1:1 shrinks the long side")
        box.apply(.resize(.left), now: second)
        #expect(box.rect.width == 2980 && box.rect.height == 2980, "the other side follows")
        box.apply(.cycleRatio, now: 2 * second)
        box.apply(.cycleRatio, now: 2 * second)
        box.apply(.cycleRatio, now: 2 * second)  // 16:9
        #expect(box.ratio == .sixteenNine)
        #expect(abs(Double(box.rect.width) / Double(box.rect.height) - 16.0 / 9) < 0.01, "\(box.rect)")
        for step in 0..<100 { box.apply(.resize(.right), now: 3 * second + Int64(step) * second) }
        #expect(box.rect.x + box.rect.width <= 4000 && box.rect.y + box.rect.height <= 3000, "still inside: \(box.rect)")
        #expect(abs(Double(box.rect.width) / Double(box.rect.height) - 16.0 / 9) < 0.01, "still 16:9 at the edge: \(box.rect)")
        var portrait = RectangleEditor(size: PixelSize(width: 3000, height: 4000))
        for _ in 0..<3 { portrait.apply(.cycleRatio, now: 0) }
        portrait.apply(.reset, now: 0)
        portrait.apply(.resize(.up), now: second)
        #expect(portrait.ratio == .fourThree && portrait.rect == PixelRect(x: 0, y: 0, width: 2985, height: 3980), "upright 3:4 on a portrait picture")
    }

    @Test func theMouseGrabsAnEdgeTheInsideOrANewCorner() {
        var box = editor()
        // The right edge, dragged to the middle: one undo step for the whole drag.
        box.apply(.press(x: 1, y: 0.5), now: 0)
        box.apply(.drag(x: 0.75, y: 0.5), now: 0)
        box.apply(.release(x: 0.5, y: 0.5), now: 0)
        #expect(box.rect == PixelRect(x: 0, y: 0, width: 2000, height: 3000))
        // The inside, dragged right by a quarter: a move, held in by the picture.
        box.apply(.press(x: 0.25, y: 0.5), now: 0)
        box.apply(.release(x: 0.5, y: 0.6), now: 0)
        #expect(box.rect == PixelRect(x: 1000, y: 0, width: 2000, height: 3000))
        box.apply(.press(x: 0.5, y: 0.5), now: 0)
        box.apply(.release(x: 2, y: 0.5), now: 0)
        #expect(box.rect.x == 2000, "dragged past the edge, it stops there")
        // Outside: a new rectangle from that corner, drawn up and to the left.
        box.apply(.press(x: 0.25, y: 0.75), now: 0)
        box.apply(.drag(x: 0.1, y: 0.2), now: 0)
        box.apply(.release(x: 0.05, y: 0.25), now: 0)
        #expect(box.rect == PixelRect(x: 200, y: 750, width: 800, height: 1500))
        // 1:1 (the rectangle shrinks to it), then a new one drawn with the ratio: the width
        // leads, the height follows until the picture's bottom stops it.
        box.apply(.cycleRatio, now: 0)
        box.apply(.cycleRatio, now: 0)
        #expect(box.rect == PixelRect(x: 200, y: 750, width: 600, height: 600))
        box.apply(.press(x: 0.25, y: 0.75), now: 0)
        box.apply(.release(x: 0.5, y: 0.8), now: 0)
        #expect(box.rect == PixelRect(x: 1000, y: 2250, width: 750, height: 750))
        for _ in 0..<6 { box.apply(.undo, now: 0) }
        #expect(box.rect == PixelRect(x: 0, y: 0, width: 2000, height: 3000), "each drag, each ratio change is one undo step")
    }

    @Test func undoAndRedoWalkTheHistoryAndANewChangeDropsTheRedo() {
        var box = editor()
        box.apply(.undo, now: 0)
        #expect(box.isWhole && !box.canUndo, "nothing to undo")
        box.apply(.resize(.left), now: 0)
        box.apply(.resize(.left), now: 10)  // held: the same step
        box.apply(.move(.right), now: second)
        let moved = box.rect
        box.apply(.undo, now: 2 * second)
        #expect(box.rect == PixelRect(x: 0, y: 0, width: 3960, height: 3000))
        box.apply(.undo, now: 3 * second)
        #expect(box.isWhole && !box.canUndo, "a held key is one step")
        box.apply(.redo, now: 4 * second)
        box.apply(.redo, now: 5 * second)
        #expect(box.rect == moved && !box.canRedo)
        box.apply(.undo, now: 6 * second)
        box.apply(.resize(.up), now: 7 * second)
        #expect(!box.canRedo, "a new change drops what could be redone")
        box.apply(.reset, now: 8 * second)
        #expect(box.isWhole)
        box.apply(.undo, now: 9 * second)
        #expect(box.rect == PixelRect(x: 0, y: 0, width: 3960, height: 2980))
    }
}
