extension PixelImage {
    /// The picture as it should be displayed, given an EXIF/TIFF orientation value (1…8).
    ///
    /// Orientation values outside 1…8 are treated as 1, as every viewer does.
    public func applyingOrientation(_ orientation: Int) -> PixelImage {
        switch orientation {
        case 2: return mirrored()
        case 3: return rotatedClockwise(quarterTurns: 2)
        case 4: return rotatedClockwise(quarterTurns: 2).mirrored()
        case 5: return rotatedClockwise(quarterTurns: 1).mirrored()
        case 6: return rotatedClockwise(quarterTurns: 1)
        case 7: return rotatedClockwise(quarterTurns: 3).mirrored()
        case 8: return rotatedClockwise(quarterTurns: 3)
        default: return self
        }
    }

    /// Left and right swapped.
    public func mirrored() -> PixelImage {
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                let from = (y * width + x) * 4
                let to = (y * width + (width - 1 - x)) * 4
                out[to] = pixels[from]
                out[to + 1] = pixels[from + 1]
                out[to + 2] = pixels[from + 2]
                out[to + 3] = pixels[from + 3]
            }
        }
        return PixelImage(width: width, height: height, pixels: out)
    }

    /// Turned clockwise by 90° steps.
    public func rotatedClockwise(quarterTurns: Int) -> PixelImage {
        let turns = ((quarterTurns % 4) + 4) % 4
        if turns == 0 { return self }
        let newWidth = turns == 2 ? width : height
        let newHeight = turns == 2 ? height : width
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                let (nx, ny): (Int, Int)
                switch turns {
                case 1: (nx, ny) = (height - 1 - y, x)
                case 2: (nx, ny) = (width - 1 - x, height - 1 - y)
                default: (nx, ny) = (y, width - 1 - x)
                }
                let from = (y * width + x) * 4
                let to = (ny * newWidth + nx) * 4
                out[to] = pixels[from]
                out[to + 1] = pixels[from + 1]
                out[to + 2] = pixels[from + 2]
                out[to + 3] = pixels[from + 3]
            }
        }
        return PixelImage(width: newWidth, height: newHeight, pixels: out)
    }

    /// Resampled to exactly `size` with a box filter when shrinking (area average) and bilinear
    /// interpolation when growing. Used for small pictures only (icons, previews already near size).
    public func resized(to size: PixelSize) -> PixelImage {
        if size.width == width && size.height == height { return self }
        guard size.width > 0, size.height > 0, width > 0, height > 0 else {
            return PixelImage(width: max(size.width, 0), height: max(size.height, 0), filledWith: .clear)
        }
        var out = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let scaleX = Double(width) / Double(size.width)
        let scaleY = Double(height) / Double(size.height)
        for ny in 0..<size.height {
            let y0 = Double(ny) * scaleY
            let y1 = min(Double(height), y0 + max(scaleY, 1))
            for nx in 0..<size.width {
                let x0 = Double(nx) * scaleX
                let x1 = min(Double(width), x0 + max(scaleX, 1))
                var sums = (0.0, 0.0, 0.0, 0.0)
                var weightTotal = 0.0
                var sy = Int(y0)
                while Double(sy) < y1 && sy < height {
                    let wy = min(Double(sy + 1), y1) - max(Double(sy), y0)
                    var sx = Int(x0)
                    while Double(sx) < x1 && sx < width {
                        let wx = min(Double(sx + 1), x1) - max(Double(sx), x0)
                        let weight = wx * wy
                        let offset = (sy * width + sx) * 4
                        let alpha = Double(pixels[offset + 3])
                        sums.0 += Double(pixels[offset]) * alpha * weight
                        sums.1 += Double(pixels[offset + 1]) * alpha * weight
                        sums.2 += Double(pixels[offset + 2]) * alpha * weight
                        sums.3 += alpha * weight
                        weightTotal += weight
                        sx += 1
                    }
                    sy += 1
                }
                let to = (ny * size.width + nx) * 4
                if sums.3 > 0 {
                    out[to] = UInt8(clamping: Int((sums.0 / sums.3).rounded()))
                    out[to + 1] = UInt8(clamping: Int((sums.1 / sums.3).rounded()))
                    out[to + 2] = UInt8(clamping: Int((sums.2 / sums.3).rounded()))
                }
                out[to + 3] = weightTotal > 0 ? UInt8(clamping: Int((sums.3 / weightTotal).rounded())) : 0
            }
        }
        return PixelImage(width: size.width, height: size.height, pixels: out)
    }

    /// The picture laid over an opaque background colour (alpha blended), fully opaque afterwards.
    public func flattened(onto background: RGBA) -> PixelImage {
        var out = pixels
        for index in stride(from: 0, to: out.count, by: 4) {
            let alpha = Int(out[index + 3])
            if alpha == 255 { continue }
            out[index] = UInt8((Int(out[index]) * alpha + Int(background.red) * (255 - alpha)) / 255)
            out[index + 1] = UInt8((Int(out[index + 1]) * alpha + Int(background.green) * (255 - alpha)) / 255)
            out[index + 2] = UInt8((Int(out[index + 2]) * alpha + Int(background.blue) * (255 - alpha)) / 255)
            out[index + 3] = 255
        }
        return PixelImage(width: width, height: height, pixels: out)
    }

    /// The part of the picture `size` large around `center` (fractions of the width and height),
    /// moved in so that it stays inside the picture.
    public func cropped(to size: PixelSize, around center: (x: Double, y: Double)) -> PixelImage {
        let width = min(size.width, self.width), height = min(size.height, self.height)
        let left = min(max(0, Int(center.x * Double(self.width)) - width / 2), self.width - width)
        let top = min(max(0, Int(center.y * Double(self.height)) - height / 2), self.height - height)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            let source = ((top + row) * self.width + left) * 4
            out[(row * width * 4)..<((row + 1) * width * 4)] = pixels[source..<(source + width * 4)]
        }
        return PixelImage(width: width, height: height, pixels: out)
    }
}
