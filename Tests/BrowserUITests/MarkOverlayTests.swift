import Testing
@testable import BrowserUI
import ThumbnailKit

/// Markup's marks drawn into the picture before it is encoded: measured in the canvas (a page's
/// points), drawn at the size of the page's picture; each shape where it was put and nothing
/// changed away from the marks.
@Suite struct MarkOverlayTests {
    private let white = PixelImage(width: 306, height: 396, filledWith: RGBA.white)
    /// A letter page, 612×792 points, drawn at half size (306×396 pixels).
    private func drawn(_ marks: [Mark]) -> PixelImage {
        MarkOverlay(marks: marks, canvas: PixelSize(width: 612, height: 792), onPage: true).applied(to: white)
    }

    private func changed(_ image: PixelImage, outside box: (x0: Int, y0: Int, x1: Int, y1: Int)) -> Int {
        var count = 0
        for y in 0..<image.height {
            for x in 0..<image.width where (x < box.x0 || x > box.x1 || y < box.y0 || y > box.y1) && image.pixel(x: x, y: y) != RGBA.white { count += 1 }
        }
        return count
    }

    @Test func aRectangleIsAnOutlineInItsColourWhereItWasPutAtThePicturesScale() {
        let image = drawn([Mark(kind: .rectangle, box: Mark.Box(x: 100, y: 200, width: 200, height: 100), colour: .blue)])
        // 100,200 200×100 points is 50,100 100×50 pixels; a 2-point line is 2 pixels, inside the box.
        #expect(image.pixel(x: 50, y: 125) == RGBA(25, 76, 242), "the left edge in blue")
        #expect(image.pixel(x: 100, y: 101) == RGBA(25, 76, 242), "the top edge")
        #expect(image.pixel(x: 100, y: 125) == RGBA.white, "the inside stays")
        #expect(changed(image, outside: (49, 99, 151, 151)) == 0, "nothing away from the rectangle")
    }

    @Test func eachKindDrawsInsideItsBoxAndTheHighlightIsTranslucent() {
        let highlight = drawn([Mark(kind: .highlight, box: Mark.Box(x: 100, y: 100, width: 100, height: 40), colour: .yellow)])
        let inside = highlight.pixel(x: 75, y: 60)
        #expect(inside.blue < 200 && inside.blue > 100 && inside.red == 255, "40% yellow over white: \(inside)")
        let ellipse = drawn([Mark(kind: .ellipse, box: Mark.Box(x: 100, y: 100, width: 200, height: 100), colour: .red)])
        #expect(ellipse.pixel(x: 100, y: 75) == RGBA.white && ellipse.pixel(x: 51, y: 75) != RGBA.white, "an outline, the middle empty")
        #expect(ellipse.pixel(x: 51, y: 51) == RGBA.white, "the box's corner is outside the ellipse")
        let stroke = drawn([Mark(kind: .freehand, box: Mark.Box(x: 0, y: 0, width: 0, height: 0), colour: .black,
                                 points: [Mark.Point(x: 100, y: 100), Mark.Point(x: 300, y: 100), Mark.Point(x: 300, y: 300)])])
        #expect(stroke.pixel(x: 100, y: 50) == RGBA(0, 0, 0) && stroke.pixel(x: 150, y: 100) == RGBA(0, 0, 0), "through every point")
        #expect(changed(stroke, outside: (48, 48, 152, 152)) == 0)
        let arrow = drawn([Mark(kind: .arrow, box: Mark.Box(x: 100, y: 100, width: 200, height: 0), colour: .green)])
        #expect(arrow.pixel(x: 145, y: 47) != RGBA.white && arrow.pixel(x: 145, y: 53) != RGBA.white, "the head's two strokes at the end")
        #expect(arrow.pixel(x: 55, y: 47) == RGBA.white, "none at the start")
    }
}
