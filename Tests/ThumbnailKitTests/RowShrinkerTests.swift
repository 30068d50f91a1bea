import Testing
@testable import ThumbnailKit

/// Shrinking by a whole factor as rows arrive: block means weighted by alpha, partial blocks at
/// the edges, straight and premultiplied rows alike.
@Suite struct RowShrinkerTests {
    private func shrink(_ picture: PixelImage, factor: Int, premultiplied: Bool = false, rowsPerCall: Int = 1) -> PixelImage {
        var shrinker = RowShrinker(source: picture.size, factor: factor, premultiplied: premultiplied)
        picture.pixels.withUnsafeBufferPointer { pixels in
            var row = 0
            while row < picture.height {
                let count = min(rowsPerCall, picture.height - row)
                shrinker.add(rows: pixels.baseAddress! + row * picture.width * 4, count: count)
                row += count
            }
        }
        return shrinker.image
    }

    @Test func theFactorLeavesAtLeastTheFittedSize() {
        #expect(RowShrinker.factor(from: PixelSize(width: 4000, height: 3000), to: PixelSize(width: 256, height: 192)) == 15)
        #expect(RowShrinker.factor(from: PixelSize(width: 300, height: 100), to: PixelSize(width: 256, height: 85)) == 1)
        #expect(RowShrinker.factor(from: PixelSize(width: 10, height: 10), to: PixelSize(width: 0, height: 0)) == 1)
    }

    @Test func eachPixelIsItsBlocksMeanAndEdgeBlocksArePartial() {
        // 5×3 in blocks of 2: columns 0-1, 2-3, 4; rows 0-1, 2.
        var pixels: [UInt8] = []
        for y in 0..<3 { for x in 0..<5 { pixels += [UInt8(x * 40), UInt8(y * 100), 7, 255] } }
        let image = shrink(PixelImage(width: 5, height: 3, pixels: pixels), factor: 2, rowsPerCall: 2)
        #expect(image.size == PixelSize(width: 3, height: 2))
        #expect(image.pixel(x: 0, y: 0) == RGBA(20, 50, 7, 255))
        #expect(image.pixel(x: 1, y: 0) == RGBA(100, 50, 7, 255))
        #expect(image.pixel(x: 2, y: 0) == RGBA(160, 50, 7, 255))
        #expect(image.pixel(x: 2, y: 1) == RGBA(160, 200, 7, 255))
    }

    @Test func aTransparentPixelsColourCountsForNothing() {
        let straight: [UInt8] = [255, 0, 0, 0, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255]
        let image = shrink(PixelImage(width: 2, height: 2, pixels: straight), factor: 2)
        #expect(image.pixel(x: 0, y: 0) == RGBA(0, 0, 255, 191))
    }

    @Test func premultipliedRowsComeOutStraight() {
        // Half-transparent red, premultiplied (128, 0, 0, 128), beside opaque blue.
        let premultiplied: [UInt8] = [128, 0, 0, 128, 0, 0, 255, 255]
        let image = shrink(PixelImage(width: 2, height: 1, pixels: premultiplied), factor: 2, premultiplied: true)
        // Straight: red 255·128 and blue 255·255 over 383 of alpha.
        #expect(image.pixel(x: 0, y: 0) == RGBA(85, 0, 170, 192))
        let one = shrink(PixelImage(width: 1, height: 1, pixels: [128, 0, 0, 128]), factor: 1, premultiplied: true)
        #expect(one.pixel(x: 0, y: 0) == RGBA(255, 0, 0, 128))
    }

    @Test func rowsPastTheLastAreIgnored() {
        var shrinker = RowShrinker(source: PixelSize(width: 1, height: 1), factor: 1, premultiplied: false)
        let rows: [UInt8] = [10, 20, 30, 255, 99, 99, 99, 99]
        rows.withUnsafeBufferPointer { shrinker.add(rows: $0.baseAddress!, count: 2) }
        #expect(shrinker.image.pixels == [10, 20, 30, 255])
    }
}
