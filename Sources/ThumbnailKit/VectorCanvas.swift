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
        for py in py0...py1 {
            for px in px0...px1 {
                var hits = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let u = (Double(px) + (Double(sx) + 0.5) / 4) / side
                        let v = (Double(py) + (Double(sy) + 0.5) / 4) / side
                        if contains(u, v) { hits += 1 }
                    }
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
        let channels = [color.red, color.green, color.blue]
        for channel in 0..<3 {
            let top = Double(channels[channel]), bottom = Double(image.pixels[offset + channel])
            image.pixels[offset + channel] = UInt8(clamping: Int(((top * alpha + bottom * below * (1 - alpha)) / outAlpha).rounded()))
        }
        image.pixels[offset + 3] = UInt8(clamping: Int((outAlpha * 255).rounded()))
    }
}
