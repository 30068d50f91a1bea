import Testing
@testable import ThumbnailKit

@Suite struct PNGEncoderTests {
    private func chunks(_ png: [UInt8]) -> [(String, [UInt8])] {
        var result: [(String, [UInt8])] = []
        var position = 8
        while position + 8 <= png.count {
            let length = Int(png[position]) << 24 | Int(png[position + 1]) << 16 | Int(png[position + 2]) << 8 | Int(png[position + 3])
            let type = String(decoding: png[(position + 4)..<(position + 8)], as: UTF8.self)
            result.append((type, Array(png[(position + 8)..<(position + 8 + length)])))
            position += 12 + length
        }
        return result
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
