import ThumbnailKit

/// A PDF page as it is shown: its crop box (the part a reader shows, in the page's own user
/// space, y up) turned clockwise by its /Rotate. Markup is placed in the shown page's
/// coordinates (points from its top-left corner, y down); this turns them into user space, where
/// annotations live, so that a mark lands where the user saw it on a turned or cropped page.
struct PDFPageFrame: Equatable {
    /// The crop box in user space: left, bottom, right, top.
    let left: Double, bottom: Double, right: Double, top: Double
    /// The page's /Rotate: 0, 90, 180 or 270, clockwise.
    let rotation: Int

    /// `box` as [x0 y0 x1 y1] in any corner order (PDF allows it) and any multiple of 90 degrees.
    init(box: [Double], rotation: Int) {
        let box = box.count == 4 ? box : [0, 0, 612, 792]
        left = min(box[0], box[2])
        right = max(box[0], box[2])
        bottom = min(box[1], box[3])
        top = max(box[1], box[3])
        self.rotation = ((rotation % 360) + 360) % 360 / 90 * 90
    }

    /// The page's size as shown, in points.
    var shownWidth: Double { rotation % 180 == 0 ? right - left : top - bottom }
    var shownHeight: Double { rotation % 180 == 0 ? top - bottom : right - left }

    /// A shown point (from the top-left, y down) in user space.
    func user(_ point: Mark.Point) -> (x: Double, y: Double) {
        let (sx, sy) = (point.x, point.y)
        switch rotation {
        case 90: return (left + sy, bottom + sx)
        case 180: return (right - sx, bottom + sy)
        case 270: return (right - sy, top - sx)
        default: return (left + sx, top - sy)
        }
    }

    /// A shown box as a user-space rectangle [left bottom right top].
    func userRect(_ box: Mark.Box) -> [Double] {
        let corners = [user(.init(x: box.x, y: box.y)), user(.init(x: box.maxX, y: box.maxY))]
        return [min(corners[0].x, corners[1].x), min(corners[0].y, corners[1].y),
                max(corners[0].x, corners[1].x), max(corners[0].y, corners[1].y)]
    }

    /// A shown box's four corners in user space as /QuadPoints: top-left, top-right,
    /// bottom-left, bottom-right as the text reads (the order readers use).
    func quadPoints(_ box: Mark.Box) -> [Double] {
        [user(.init(x: box.x, y: box.y)), user(.init(x: box.maxX, y: box.y)),
         user(.init(x: box.x, y: box.maxY)), user(.init(x: box.maxX, y: box.maxY))].flatMap { [$0.x, $0.y] }
    }

    /// The /Matrix of an appearance drawn upright as shown (form space y up, origin at the
    /// box's shown bottom-left): it turns the drawing back by the page's rotation, so that after
    /// the reader turns the page the drawing is upright, text included.
    var appearanceMatrix: [Double] {
        switch rotation {
        case 90: [0, 1, -1, 0, 0, 0]
        case 180: [-1, 0, 0, -1, 0, 0]
        case 270: [0, -1, 1, 0, 0, 0]
        default: [1, 0, 0, 1, 0, 0]
        }
    }
}
