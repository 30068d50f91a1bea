import Testing
@testable import ThumbnailKit

@Suite struct PixelImageTransformTests {
    /// A 3×2 picture whose pixels are numbered 0…5 in the red channel, row by row.
    private func numbered() -> PixelImage {
        var pixels: [UInt8] = []
        for value in 0..<6 { pixels += [UInt8(value), 0, 0, 255] }
        return PixelImage(width: 3, height: 2, pixels: pixels)
    }

    private func reds(_ image: PixelImage) -> [UInt8] { stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] } }

    @Test func quarterTurnClockwiseMovesTheBottomLeftToTheTopLeft() {
        let turned = numbered().rotatedClockwise(quarterTurns: 1)
        #expect(turned.size == PixelSize(width: 2, height: 3))
        #expect(reds(turned) == [3, 0, 4, 1, 5, 2])
    }

    @Test func orientationSixIsAQuarterTurnClockwise() {
        #expect(numbered().applyingOrientation(6) == numbered().rotatedClockwise(quarterTurns: 1))
    }

    @Test func everyOrientationKeepsOrSwapsTheSize() {
        for orientation in 1...8 {
            let size = numbered().applyingOrientation(orientation).size
            #expect(size == (orientation >= 5 ? PixelSize(width: 2, height: 3) : PixelSize(width: 3, height: 2)))
        }
    }

    @Test func orientationTwoMirrors() {
        #expect(reds(numbered().applyingOrientation(2)) == [2, 1, 0, 5, 4, 3])
    }

    @Test func invalidOrientationLeavesThePictureAlone() {
        #expect(numbered().applyingOrientation(0) == numbered())
        #expect(numbered().applyingOrientation(9) == numbered())
    }

    @Test func resizeAveragesAreas() {
        let image = PixelImage(width: 2, height: 1, pixels: [0, 0, 0, 255, 200, 100, 50, 255])
        let half = image.resized(to: PixelSize(width: 1, height: 1))
        #expect(half.pixels == [100, 50, 25, 255])
    }

    @Test func flatteningBlendsOntoTheBackground() {
        let image = PixelImage(width: 1, height: 1, pixels: [0, 0, 0, 0])
        #expect(image.flattened(onto: .white).pixels == [255, 255, 255, 255])
    }
}
