import Testing
@testable import BrowserUI
import ThumbnailKit

/// The rectangle drawn into a picture before it is encoded (Quick Look's crop): measured in the
/// full picture's pixels, drawn at the size of the picture at hand; outside dimmed, a light edge
/// inside, a dark rim outside, the inside untouched.
@Suite struct RectangleOverlayTests {
    @Test func theRectangleIsScaledToThePictureAndTheOutsideIsDimmed() {
        let grey = PixelImage(width: 200, height: 100, filledWith: RGBA(200, 200, 200))
        // A 2000×1000 picture shown at 200×100: the rectangle 800×400 at (400, 300) is 80×40 at (40, 30).
        let drawn = RectangleOverlay(rect: PixelRect(x: 400, y: 300, width: 800, height: 400), size: PixelSize(width: 2000, height: 1000)).applied(to: grey)
        #expect(drawn.pixel(x: 5, y: 5) == RGBA(80, 80, 80), "outside: two fifths of its light")
        #expect(drawn.pixel(x: 190, y: 90) == RGBA(80, 80, 80))
        #expect(drawn.pixel(x: 80, y: 50) == RGBA(200, 200, 200), "inside: as it was")
        #expect(drawn.pixel(x: 40, y: 50) == RGBA.white && drawn.pixel(x: 119, y: 50) == RGBA.white, "the left and right edges, inside")
        #expect(drawn.pixel(x: 80, y: 30) == RGBA.white && drawn.pixel(x: 80, y: 69) == RGBA.white, "the top and bottom edges")
        #expect(drawn.pixel(x: 39, y: 50) == RGBA.black && drawn.pixel(x: 120, y: 50) == RGBA.black, "a dark rim just outside")
        #expect(drawn.pixel(x: 38, y: 50) == RGBA(80, 80, 80))
    }
}
