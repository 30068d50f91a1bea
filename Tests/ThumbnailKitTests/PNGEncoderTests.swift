import Testing
@testable import ThumbnailKit

@Suite struct PNGEncoderTests {
    private func chunks(_ png: [UInt8]) -> [(String, [UInt8])] {
        PNGChunks.list(png).map { ($0.type, Array(png[$0.data])) }
    }

    @Test func writesSignatureHeaderTextAndEnd() {
        let png = PNGEncoder.encode(PixelImage(width: 3, height: 2, filledWith: RGBA(1, 2, 3)), text: [("Thumb::URI", "file:///a.png")])
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let found = chunks(png)
        #expect(found.map(\.0) == ["IHDR", "tEXt", "IDAT", "IEND"])
        #expect(found[0].1 == [0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0])
        #expect(found[1].1 == Array("Thumb::URI".utf8) + [0] + Array("file:///a.png".utf8))
    }
}
