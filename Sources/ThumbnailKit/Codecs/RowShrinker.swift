/// Shrinks a picture by a whole factor as its rows arrive, holding one row of blocks rather than
/// the picture: shrink-on-load for formats whose library cannot shrink (PNG, TIFF), so that memory
/// follows the thumbnail whatever the picture's size. Each pixel of the result is the mean of its
/// block, weighted by alpha (a transparent pixel's colour counts for nothing).
package struct RowShrinker {
    package let sourceWidth: Int
    package let sourceHeight: Int
    package let factor: Int
    /// Whether the rows' colours are premultiplied by their alpha (libtiff's RGBA), else straight.
    package let premultiplied: Bool
    /// The result's size: the source's divided by the factor, rounded up (the last blocks are partial).
    package let width: Int
    package let height: Int
    /// Per block of the current band: Σ red, green, blue (each times alpha when straight), Σ alpha.
    private var sums: [Int]
    private var pixels: [UInt8]
    private var rowsInBand = 0
    private var rowsDone = 0

    /// The largest whole factor that leaves the picture at least `fitted` in both directions.
    package static func factor(from source: PixelSize, to fitted: PixelSize) -> Int {
        guard fitted.width > 0, fitted.height > 0 else { return 1 }
        return max(1, min(source.width / fitted.width, source.height / fitted.height))
    }

    package init(source: PixelSize, factor: Int, premultiplied: Bool) {
        sourceWidth = max(source.width, 0)
        sourceHeight = max(source.height, 0)
        self.factor = max(factor, 1)
        self.premultiplied = premultiplied
        width = (sourceWidth + self.factor - 1) / self.factor
        height = (sourceHeight + self.factor - 1) / self.factor
        sums = [Int](repeating: 0, count: width * 4)
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Adds `count` rows of RGBA bytes (stride sourceWidth*4), the next ones from the top.
    package mutating func add(rows: UnsafePointer<UInt8>, count: Int) {
        for index in 0..<min(count, sourceHeight - rowsDone) {
            accumulate(rows + index * sourceWidth * 4)
            rowsDone += 1
            rowsInBand += 1
            if rowsInBand == factor || rowsDone == sourceHeight { emitBand() }
        }
    }

    /// The shrunk picture; rows never added stay transparent.
    package var image: PixelImage { PixelImage(width: width, height: height, pixels: pixels) }

    private mutating func accumulate(_ row: UnsafePointer<UInt8>) {
        let factor = factor, sourceWidth = sourceWidth, width = width, premultiplied = premultiplied
        sums.withUnsafeMutableBufferPointer { sums in
            for block in 0..<width {
                var red = 0, green = 0, blue = 0, alpha = 0
                for x in (block * factor)..<min(block * factor + factor, sourceWidth) {
                    let pixel = row + x * 4
                    let a = Int(pixel[3])
                    if premultiplied {
                        red += Int(pixel[0]); green += Int(pixel[1]); blue += Int(pixel[2])
                    } else {
                        red += Int(pixel[0]) * a; green += Int(pixel[1]) * a; blue += Int(pixel[2]) * a
                    }
                    alpha += a
                }
                sums[block * 4] += red
                sums[block * 4 + 1] += green
                sums[block * 4 + 2] += blue
                sums[block * 4 + 3] += alpha
            }
        }
    }

    private mutating func emitBand() {
        let outputRow = (rowsDone - 1) / factor
        let rows = rowsInBand, factor = factor, sourceWidth = sourceWidth, width = width
        // Premultiplied sums are colour×alpha/255 already: scaled up to match straight ones.
        let colourScale = premultiplied ? 255 : 1
        pixels.withUnsafeMutableBufferPointer { pixels in
            sums.withUnsafeMutableBufferPointer { sums in
                for block in 0..<width {
                    let count = (min(block * factor + factor, sourceWidth) - block * factor) * rows
                    let alpha = sums[block * 4 + 3]
                    let to = (outputRow * width + block) * 4
                    if alpha > 0 {
                        for channel in 0..<3 {
                            pixels[to + channel] = UInt8(min(255, (sums[block * 4 + channel] * colourScale + alpha / 2) / alpha))
                        }
                    }
                    pixels[to + 3] = UInt8(min(255, (alpha + count / 2) / count))
                    for channel in 0..<4 { sums[block * 4 + channel] = 0 }
                }
            }
        }
        rowsInBand = 0
    }
}
