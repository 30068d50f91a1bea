/// A tiny anti-aliased rasteriser for the generic icons: fills shapes given as inside-tests in a
/// unit square, sampling each pixel 4×4 times. Enough for flat icons, no font or library needed.
struct VectorCanvas {
    private(set) var image: PixelImage
    private let side: Double

    init(side: Int) {
        image = PixelImage(width: side, height: side, filledWith: .clear)
        self.side = Double(side)
    }

    /// Fills every point of the unit square for which `contains` is true, within `bounds` (unit coordinates).
    mutating func fill(_ color: RGBA, bounds: (x0: Double, y0: Double, x1: Double, y1: Double), _ contains: (Double, Double) -> Bool) {
        let n = image.width
        let px0 = max(0, Int(bounds.x0 * side) - 1), px1 = min(n - 1, Int(bounds.x1 * side) + 1)
        let py0 = max(0, Int(bounds.y0 * side) - 1), py1 = min(n - 1, Int(bounds.y1 * side) + 1)
        guard px0 <= px1, py0 <= py1 else { return }
        // At icon sizes every feature is several pixels wide, so a pixel whose four corner samples
        // agree is wholly in or out; only edge pixels need all sixteen samples.
        let adaptive = n >= 64
        for py in py0...py1 {
            for px in px0...px1 {
                func sample(_ sx: Int, _ sy: Int) -> Bool {
                    contains((Double(px) + (Double(sx) + 0.5) / 4) / side, (Double(py) + (Double(sy) + 0.5) / 4) / side)
                }
                var hits = 0
                if adaptive {
                    let corners = (sample(0, 0) ? 1 : 0) + (sample(3, 0) ? 1 : 0) + (sample(0, 3) ? 1 : 0) + (sample(3, 3) ? 1 : 0)
                    if corners == 0 { continue }
                    if corners == 4 {
                        blend(color, coverage: 1, x: px, y: py)
                        continue
                    }
                }
                for sy in 0..<4 {
                    for sx in 0..<4 where sample(sx, sy) { hits += 1 }
                }
                if hits > 0 { blend(color, coverage: Double(hits) / 16, x: px, y: py) }
            }
        }
    }

    mutating func rectangle(_ color: RGBA, x0: Double, y0: Double, x1: Double, y1: Double, radius: Double = 0) {
        fill(color, bounds: (x0, y0, x1, y1)) { u, v in
            guard u >= x0, u <= x1, v >= y0, v <= y1 else { return false }
            guard radius > 0 else { return true }
            let cx = min(max(u, x0 + radius), x1 - radius)
            let cy = min(max(v, y0 + radius), y1 - radius)
            return (u - cx) * (u - cx) + (v - cy) * (v - cy) <= radius * radius
        }
    }

    mutating func circle(_ color: RGBA, cx: Double, cy: Double, r: Double) {
        fill(color, bounds: (cx - r, cy - r, cx + r, cy + r)) { u, v in (u - cx) * (u - cx) + (v - cy) * (v - cy) <= r * r }
    }

    mutating func polygon(_ color: RGBA, _ points: [(Double, Double)]) {
        let xs = points.map(\.0), ys = points.map(\.1)
        fill(color, bounds: (xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0)) { u, v in
            var inside = false
            var j = points.count - 1
            for i in 0..<points.count {
                let (xi, yi) = points[i], (xj, yj) = points[j]
                if (yi > v) != (yj > v) && u < (xj - xi) * (v - yi) / (yj - yi) + xi { inside.toggle() }
                j = i
            }
            return inside
        }
    }

    private mutating func blend(_ color: RGBA, coverage: Double, x: Int, y: Int) {
        let offset = (y * image.width + x) * 4
        let alpha = Double(color.alpha) / 255 * coverage
        let below = Double(image.pixels[offset + 3]) / 255
        let outAlpha = alpha + below * (1 - alpha)
        guard outAlpha > 0 else { return }
        func mixed(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8(clamping: Int(((Double(top) * alpha + Double(bottom) * below * (1 - alpha)) / outAlpha).rounded()))
        }
        image.pixels[offset] = mixed(color.red, image.pixels[offset])
        image.pixels[offset + 1] = mixed(color.green, image.pixels[offset + 1])
        image.pixels[offset + 2] = mixed(color.blue, image.pixels[offset + 2])
        image.pixels[offset + 3] = UInt8(clamping: Int((outAlpha * 255).rounded()))
    }
}
