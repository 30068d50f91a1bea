import ThumbnailKit

/// The mouse on a `RectangleEditor`: a press near an edge or a corner takes it (a resize),
/// inside the rectangle takes the whole (a move), outside starts a new rectangle from there
/// (as does a press inside while the rectangle is still the whole picture).
/// The drag follows the pointer; the release ends it, one undo step for all of it.
extension RectangleEditor {
    /// What a press took hold of.
    struct Grab: Sendable, Equatable {
        enum Hold: Sendable, Equatable {
            /// The whole rectangle, held this far from its top left corner.
            case whole(dx: Int, dy: Int)
            /// Some of its edges.
            case edges(left: Bool, right: Bool, top: Bool, bottom: Bool)
            /// A new rectangle from this corner.
            case anchor(x: Int, y: Int)
        }

        let hold: Hold
        /// The rectangle when the press came: what undo goes back to.
        let start: PixelRect
    }

    /// How near an edge a press takes it: a fortieth of the picture's width (a cell or two on a
    /// terminal) and a twentieth of its height (rows are taller than columns are wide).
    private var reach: (x: Int, y: Int) { (max(2, size.width / 40), max(2, size.height / 20)) }

    mutating func press(at point: (x: Int, y: Int)) {
        let (reachX, reachY) = reach
        let right = rect.x + rect.width, bottom = rect.y + rect.height
        let withinRows = point.y >= rect.y - reachY && point.y <= bottom + reachY
        let withinColumns = point.x >= rect.x - reachX && point.x <= right + reachX
        let left = withinRows && abs(point.x - rect.x) <= reachX, rightEdge = withinRows && abs(point.x - right) <= reachX
        let top = withinColumns && abs(point.y - rect.y) <= reachY, bottomEdge = withinColumns && abs(point.y - bottom) <= reachY
        let hold: Grab.Hold
        if left || rightEdge || top || bottomEdge {
            // Of two edges both in reach (a thin rectangle), the nearer.
            let horizontal = left && rightEdge ? (abs(point.x - rect.x) < abs(point.x - right) ? (true, false) : (false, true)) : (left, rightEdge)
            let vertical = top && bottomEdge ? (abs(point.y - rect.y) < abs(point.y - bottom) ? (true, false) : (false, true)) : (top, bottomEdge)
            hold = .edges(left: horizontal.0, right: horizontal.1, top: vertical.0, bottom: vertical.1)
        } else if !isWhole, point.x > rect.x, point.x < right, point.y > rect.y, point.y < bottom {
            // (The whole picture cannot move: a press inside it starts a new rectangle.)
            hold = .whole(dx: point.x - rect.x, dy: point.y - rect.y)
        } else {
            hold = .anchor(x: point.x, y: point.y)
        }
        grab = Grab(hold: hold, start: rect)
    }

    mutating func drag(to point: (x: Int, y: Int)) {
        guard let grab else { return }
        let start = grab.start
        switch grab.hold {
        case .whole(let dx, let dy):
            rect.x = min(max(0, point.x - dx), size.width - rect.width)
            rect.y = min(max(0, point.y - dy), size.height - rect.height)
        case .edges(let left, let right, let top, let bottom):
            var (x0, y0, x1, y1) = (start.x, start.y, start.x + start.width, start.y + start.height)
            if left { x0 = min(point.x, x1 - 1) }
            if right { x1 = max(point.x, x0 + 1) }
            if top { y0 = min(point.y, y1 - 1) }
            if bottom { y1 = max(point.y, y0 + 1) }
            place(x0: x0, y0: y0, x1: x1, y1: y1, widthLeads: left || right, fromLeft: !left, fromTop: !top)
        case .anchor(let x, let y):
            let (x0, x1) = (min(x, point.x), max(x, point.x)), (y0, y1) = (min(y, point.y), max(y, point.y))
            place(x0: x0, y0: y0, x1: max(x1, x0 + 1), y1: max(y1, y0 + 1), widthLeads: x1 - x0 >= y1 - y0, fromLeft: point.x >= x, fromTop: point.y >= y)
        }
    }

    /// Ends a drag: one undo step back to where it started.
    mutating func endDrag() {
        if let grab, rect != grab.start { remember(grab.start) }
        grab = nil
    }

    /// The rectangle between two corners, inside the picture; with a ratio, the side that does
    /// not lead follows, growing away from the corner that stays (`fromLeft`: the left edge stays).
    private mutating func place(x0: Int, y0: Int, x1: Int, y1: Int, widthLeads: Bool, fromLeft: Bool, fromTop: Bool) {
        let left = max(0, x0), top = max(0, y0), right = min(size.width, x1), bottom = min(size.height, y1)
        var width = max(1, right - left), height = max(1, bottom - top)
        if let ratio = ratio.value(on: size) {
            let roomWidth = fromLeft ? size.width - left : right, roomHeight = fromTop ? size.height - top : bottom
            if widthLeads { height = Int((Double(width) / ratio).rounded()) } else { width = Int((Double(height) * ratio).rounded()) }
            if height > roomHeight { height = roomHeight; width = Int((Double(height) * ratio).rounded()) }
            if width > roomWidth { width = roomWidth; height = Int((Double(width) / ratio).rounded()) }
            width = max(1, min(width, roomWidth))
            height = max(1, min(height, roomHeight))
        }
        rect = PixelRect(x: fromLeft ? left : right - width, y: fromTop ? top : bottom - height, width: width, height: height)
    }
}
