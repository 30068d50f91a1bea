/// One mark of Markup on a PDF page or a picture: a shape, a highlight, a text note or a
/// freehand stroke, where the user put it. It is what the markup editor draws and what
/// `qlbrowse edit annotate` reads; `FileEdit.annotate(marks:)` writes a list of them (real PDF
/// annotations on a PDF, pixels on a picture).
///
/// Coordinates are those of the page or picture *as shown*, from its top-left corner, y down:
/// PDF points inside the page's crop box after its /Rotate, or pixels of the picture after its
/// EXIF orientation. The editors turn them into the file's own coordinates.
public struct Mark: Codable, Sendable, Equatable {
    /// What the mark is. The PDF annotation each becomes is named beside it.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A rectangle's outline (/Square).
        case rectangle
        /// An ellipse's outline inside the box (/Circle).
        case ellipse
        /// A line with an arrowhead at its end (/Line with /LE [/None /OpenArrow]): from the
        /// box's top-left to its bottom-right corner, or from the first point to the last.
        case arrow
        /// A translucent band over the box, for text (/Highlight with /QuadPoints).
        case highlight
        /// The note's text written inside the box (/FreeText).
        case note
        /// A stroke through the points (/Ink).
        case freehand
    }

    /// The few colours of Markup's palette.
    public enum Colour: String, Codable, Sendable, CaseIterable {
        case red, yellow, green, blue, black

        /// Red, green and blue from 0 to 1.
        public var components: (red: Double, green: Double, blue: Double) {
            switch self {
            case .red: (0.90, 0.10, 0.10)
            case .yellow: (1.00, 0.85, 0.00)
            case .green: (0.10, 0.70, 0.20)
            case .blue: (0.10, 0.30, 0.95)
            case .black: (0.00, 0.00, 0.00)
            }
        }
    }

    /// A rectangle as shown: its top-left corner and its size.
    public struct Box: Codable, Sendable, Equatable {
        public var x: Double, y: Double, width: Double, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
        public var maxX: Double { x + width }
        public var maxY: Double { y + height }
        /// The smallest box holding every point.
        public static func around(_ points: [Point]) -> Box? {
            guard let first = points.first else { return nil }
            var box = Box(x: first.x, y: first.y, width: 0, height: 0)
            for point in points.dropFirst() {
                let minX = min(box.x, point.x), minY = min(box.y, point.y)
                box = Box(x: minX, y: minY, width: max(box.maxX, point.x) - minX, height: max(box.maxY, point.y) - minY)
            }
            return box
        }
    }

    /// A point as shown.
    public struct Point: Codable, Sendable, Equatable {
        public var x: Double, y: Double
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    public var kind: Kind
    /// The page, counted from 0 (pictures have one, 0).
    public var page: Int
    public var box: Box
    public var colour: Colour
    /// A note's text, or the comment a reader shows for any other mark (/Contents).
    public var note: String?
    /// A freehand stroke's points, or an arrow's start and end; empty for the other kinds.
    public var points: [Point]

    public init(kind: Kind, page: Int = 0, box: Box, colour: Colour = .red, note: String? = nil, points: [Point] = []) {
        self.kind = kind
        self.page = page
        self.box = box
        self.colour = colour
        self.note = note
        self.points = points
    }

    /// The stroke's width on a page, in points (a picture's is scaled to its size).
    public static let pageLineWidth = 2.0

    /// The arrow's two ends: the first and last points, else the box's diagonal.
    public var arrowEnds: (start: Point, end: Point) {
        if points.count >= 2, let first = points.first, let last = points.last { return (first, last) }
        return (Point(x: box.x, y: box.y), Point(x: box.maxX, y: box.maxY))
    }

    /// Whether any of the mark falls on a page or picture of this size as shown.
    public func overlaps(width: Double, height: Double) -> Bool {
        let area = points.isEmpty ? box : Box.around(points + [Point(x: box.x, y: box.y), Point(x: box.maxX, y: box.maxY)]) ?? box
        return area.maxX >= 0 && area.maxY >= 0 && area.x <= width && area.y <= height
    }

    /// Why the mark cannot be drawn, or nil: a box with no area, a freehand mark without points,
    /// a note without text.
    public var problem: String? {
        guard [box.x, box.y, box.width, box.height].allSatisfy(\.isFinite), points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            return "the box and the points must be numbers"
        }
        switch kind {
        case .freehand where points.count < 2: return "a freehand mark needs at least two points (--points x1,y1,x2,y2,…)"
        case .note where (note ?? "").isEmpty: return "a note needs its text (--note TEXT)"
        case .arrow where points.count == 1: return "an arrow needs two points, or none (the box's diagonal)"
        default: break
        }
        if kind != .freehand, kind != .arrow || points.isEmpty, box.width <= 0 || box.height <= 0 {
            return "the box must have a width and a height"
        }
        return nil
    }
}
