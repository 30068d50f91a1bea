import BrowserCore
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Markup's marks drawn into a picture before it goes to the terminal, so the preview shows what
/// saving will write before anything is: outlines, the arrow with its head, the translucent
/// highlight, freehand strokes, a note's frame (its text is on the info line: the terminal's
/// picture has no fonts). Lines are as thick as the saved ones (2 points on a page, a
/// three-hundredth of a photo) but at least two pixels, so they show in a small preview.
struct MarkOverlay: Sendable, Equatable, CustomStringConvertible {
    /// In the canvas's units: the picture's pixels or the page's points, as shown.
    let marks: [Mark]
    let canvas: PixelSize
    /// Drawn on a page (2-point lines) or a photo (lines scaled to its size).
    let onPage: Bool

    var description: String {
        // The encoding's id: a different list of marks is another picture.
        var hasher = Hasher()
        for mark in marks { hasher.combine("\(mark)") }
        return "marks\(marks.count)-\(hasher.finalize())of\(canvas.width)x\(canvas.height)"
    }

    /// The picture (of any size: the page's or photo's picture as drawn) with the marks in.
    func applied(to image: PixelImage) -> PixelImage {
        guard image.width > 0, image.height > 0, canvas.width > 0, canvas.height > 0, !marks.isEmpty else { return image }
        var painter = Painter(image: image, scaleX: Double(image.width) / Double(canvas.width), scaleY: Double(image.height) / Double(canvas.height))
        let width = onPage ? Mark.pageLineWidth : max(2, (Double(min(canvas.width, canvas.height)) / 300).rounded())
        painter.lineWidth = max(2, width * painter.scaleX)
        for mark in marks { painter.paint(mark) }
        return painter.image
    }

    /// Paints into the pixels: lines by their distance from each pixel (no antialiasing).
    struct Painter {
        var image: PixelImage
        let scaleX: Double, scaleY: Double
        var lineWidth = 2.0

        mutating func paint(_ mark: Mark) {
            let c = mark.colour.components
            let colour = (UInt8(c.red * 255), UInt8(c.green * 255), UInt8(c.blue * 255))
            let box = mark.box
            let (x0, y0, x1, y1) = (box.x * scaleX, box.y * scaleY, box.maxX * scaleX, box.maxY * scaleY)
            let half = lineWidth / 2
            switch mark.kind {
            case .rectangle:
                let (l, t, r, b) = (x0 + half, y0 + half, x1 - half, y1 - half)
                for (from, to) in [((l, t), (r, t)), ((r, t), (r, b)), ((r, b), (l, b)), ((l, b), (l, t))] { line(from, to, colour) }
            case .ellipse: ellipse(x0, y0, x1, y1, colour)
            case .highlight: fill(x0, y0, x1, y1, colour, opacity: 0.4)
            case .note:
                fill(x0, y0, x1, y1, colour, opacity: 0.15)
                let thin = max(1, half)
                for (from, to) in [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))] { line(from, to, colour, width: thin) }
            case .arrow:
                let (start, end) = mark.arrowEnds
                let (sx, sy, ex, ey) = (start.x * scaleX, start.y * scaleY, end.x * scaleX, end.y * scaleY)
                line((sx, sy), (ex, ey), colour)
                // The head: two strokes five line widths long, 30° either side of the line.
                let angle = (ey == sy && ex == sx) ? 0 : atan2(ey - sy, ex - sx), length = lineWidth * 5
                for side in [-1.0, 1.0] {
                    let turned = angle + .pi - side * .pi / 6
                    line((ex, ey), (ex + length * cos(turned), ey + length * sin(turned)), colour)
                }
            case .freehand:
                let points = mark.points.map { ($0.x * scaleX, $0.y * scaleY) }
                for index in points.indices.dropFirst() { line(points[index - 1], points[index], colour) }
            }
        }

        /// A segment `width` thick (the mark's line unless given), with round ends.
        mutating func line(_ from: (Double, Double), _ to: (Double, Double), _ colour: (UInt8, UInt8, UInt8), width: Double? = nil) {
            let half = (width ?? lineWidth) / 2
            let (dx, dy) = (to.0 - from.0, to.1 - from.1), length2 = dx * dx + dy * dy
            forEach(min(from.0, to.0) - half, min(from.1, to.1) - half, max(from.0, to.0) + half, max(from.1, to.1) + half) { x, y in
                let t = length2 == 0 ? 0 : min(1, max(0, ((x - from.0) * dx + (y - from.1) * dy) / length2))
                let (px, py) = (from.0 + t * dx - x, from.1 + t * dy - y)
                return px * px + py * py <= half * half ? 1 : 0
            } paint: { colour }
        }

        /// The ellipse's outline inside the box, the line within it.
        mutating func ellipse(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ colour: (UInt8, UInt8, UInt8)) {
            let half = lineWidth / 2
            let (cx, cy) = ((x0 + x1) / 2, (y0 + y1) / 2), (a, b) = (max(0.5, (x1 - x0) / 2 - half), max(0.5, (y1 - y0) / 2 - half))
            forEach(x0, y0, x1, y1) { x, y in
                let (nx, ny) = ((x - cx) / a, (y - cy) / b)
                let radius = (nx * nx + ny * ny).squareRoot()
                // The distance to the outline, roughly: the radius' error times the half-axis in that direction.
                let scale = radius == 0 ? min(a, b) : ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() / radius
                return abs(radius - 1) * scale <= half ? 1 : 0
            } paint: { colour }
        }

        mutating func fill(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ colour: (UInt8, UInt8, UInt8), opacity: Double) {
            forEach(x0, y0, x1, y1, { _, _ in opacity }, paint: { colour })
        }

        /// Every pixel whose centre lies in the box: `cover` says how much of `paint`'s colour goes on it.
        private mutating func forEach(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                                      _ cover: (Double, Double) -> Double, paint: () -> (UInt8, UInt8, UInt8)) {
            let (width, height) = (image.width, image.height)
            let left = max(0, Int(x0.rounded(.down))), right = min(width - 1, Int(x1.rounded(.up)))
            let top = max(0, Int(y0.rounded(.down))), bottom = min(height - 1, Int(y1.rounded(.up)))
            guard left <= right, top <= bottom else { return }
            let colour = paint()
            for y in top...bottom {
                for x in left...right {
                    let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
                    guard cx >= x0, cx <= x1, cy >= y0, cy <= y1 else { continue }
                    let amount = cover(cx, cy)
                    guard amount > 0 else { continue }
                    let offset = (y * width + x) * 4
                    for (channel, value) in [colour.0, colour.1, colour.2].enumerated() {
                        let old = Double(image.pixels[offset + channel])
                        image.pixels[offset + channel] = UInt8((old + (Double(value) - old) * min(1, amount)).rounded())
                    }
                    image.pixels[offset + 3] = 255
                }
            }
        }
    }
}
