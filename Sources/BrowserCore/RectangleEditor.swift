import ThumbnailKit

/// A rectangle laid over a picture and changed by keys and the mouse: the state of Quick Look's
/// crop, and of any editor that places a box on a picture (markup's shapes). Coordinates are
/// pixels of the picture as shown; the rectangle always stays inside it and at least one pixel.
///
/// Keys move or resize by a step that grows while a key is held (the same key again within
/// `repeatInterval`); a ratio lock keeps width to height; every change can be undone and redone
/// (a held key or a drag is one step).
public struct RectangleEditor: Sendable, Equatable {
    /// Width to height kept while moving edges.
    public enum Ratio: Sendable, Equatable, CaseIterable {
        case free, original, square, fourThree, threeTwo, sixteenNine

        /// The ratio on `size`: the picture's own for `.original`; a portrait picture gets the
        /// named ratios upright (3:4 rather than 4:3).
        func value(on size: PixelSize) -> Double? {
            let landscape: Double
            switch self {
            case .free: return nil
            case .original: return Double(size.width) / Double(size.height)
            case .square: return 1
            case .fourThree: landscape = 4.0 / 3
            case .threeTwo: landscape = 3.0 / 2
            case .sixteenNine: landscape = 16.0 / 9
            }
            return size.height > size.width ? 1 / landscape : landscape
        }

        public var name: String {
            switch self {
            case .free: "free"
            case .original: "original"
            case .square: "1:1"
            case .fourThree: "4:3"
            case .threeTwo: "3:2"
            case .sixteenNine: "16:9"
            }
        }

        var next: Ratio { Self.allCases[(Self.allCases.firstIndex(of: self)! + 1) % Self.allCases.count] }
    }

    /// A key's direction: moves the rectangle, or for a resize, the right or bottom edge.
    public enum Direction: Sendable, Equatable { case left, right, up, down }

    /// What a key or the mouse asks of the rectangle.
    public enum Action: Sendable, Equatable {
        case move(Direction)
        case resize(Direction)
        case cycleRatio
        /// The mouse: pressed, dragged or released at a point given as fractions (0…1) of the
        /// picture's width and height as drawn.
        case press(x: Double, y: Double)
        case drag(x: Double, y: Double)
        case release(x: Double, y: Double)
        case undo
        case redo
        /// The whole picture again.
        case reset
    }

    /// A key held this close after the last one (monotonic nanoseconds) counts as held.
    public static let repeatInterval: Int64 = 250_000_000

    public let size: PixelSize
    public internal(set) var rect: PixelRect
    public internal(set) var ratio = Ratio.free
    var undoStack: [PixelRect] = []
    var redoStack: [PixelRect] = []
    /// The last key and when, and how many times in a row it came within `repeatInterval`.
    var lastKey: Action?
    var lastKeyAt: Int64 = .min
    var repeats = 0
    /// A drag under way: what it holds and where it started.
    var grab: Grab?

    public init(size: PixelSize) {
        self.size = PixelSize(width: max(1, size.width), height: max(1, size.height))
        rect = PixelRect(x: 0, y: 0, width: self.size.width, height: self.size.height)
    }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }
    /// The rectangle is the whole picture: nothing would be cut.
    public var isWhole: Bool { rect == PixelRect(x: 0, y: 0, width: size.width, height: size.height) }

    /// The step a key moves by now: a two-hundredth of the picture's longer side (at least one
    /// pixel), doubling every four repeats of a held key, up to 32 times.
    var step: Int {
        let unit = max(1, max(size.width, size.height) / 200)
        return unit * (1 << min(5, repeats / 4))
    }

    /// Does `action`; `now` (monotonic nanoseconds) tells a held key from separate presses.
    public mutating func apply(_ action: Action, now: Int64) {
        let held = action == lastKey && now >= lastKeyAt && now - lastKeyAt <= Self.repeatInterval
        switch action {
        case .move, .resize:
            repeats = held ? repeats + 1 : 0
            lastKey = action
            lastKeyAt = now
        default:
            lastKey = nil
            repeats = 0
        }
        let before = rect
        switch action {
        case .move(let direction):
            let (dx, dy) = Self.offset(direction, step)
            rect.x = min(max(0, rect.x + dx), size.width - rect.width)
            rect.y = min(max(0, rect.y + dy), size.height - rect.height)
        case .resize(let direction):
            let (dx, dy) = Self.offset(direction, step)
            resize(width: rect.width + dx, height: rect.height + dy, widthLeads: dx != 0)
        case .cycleRatio:
            ratio = ratio.next
            resize(width: rect.width, height: rect.height, widthLeads: rect.width * size.height <= rect.height * size.width, shrinkOnly: true)
        case .press(let x, let y): press(at: point(x, y))
        case .drag(let x, let y): drag(to: point(x, y))
        case .release(let x, let y):
            drag(to: point(x, y))
            endDrag()
        case .undo:
            guard let last = undoStack.popLast() else { return }
            redoStack.append(rect)
            rect = last
            return
        case .redo:
            guard let next = redoStack.popLast() else { return }
            undoStack.append(rect)
            rect = next
            return
        case .reset:
            rect = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
        }
        // A held key, or a drag after its press, adds to the step already kept.
        let continues: Bool
        switch action {
        case .press, .drag, .release: continues = true
        default: continues = held
        }
        if rect != before, !continues { remember(before) }
    }

    mutating func remember(_ before: PixelRect) {
        undoStack.append(before)
        if undoStack.count > 200 { undoStack.removeFirst() }
        redoStack.removeAll()
    }

    private static func offset(_ direction: Direction, _ step: Int) -> (Int, Int) {
        switch direction {
        case .left: (-step, 0)
        case .right: (step, 0)
        case .up: (0, -step)
        case .down: (0, step)
        }
    }

    /// A point given as fractions of the picture, in its pixels (inside it).
    private func point(_ x: Double, _ y: Double) -> (x: Int, y: Int) {
        func pixel(_ fraction: Double, _ side: Int) -> Int {
            guard fraction.isFinite else { return 0 }
            return Int((min(max(0, fraction), 1) * Double(side)).rounded())
        }
        return (pixel(x, size.width), pixel(y, size.height))
    }

    /// Sets the size with the top left corner where it is, kept to the ratio (the side that
    /// `widthLeads` decides, the other follows) and inside the picture.
    mutating func resize(width: Int, height: Int, widthLeads: Bool, shrinkOnly: Bool = false) {
        var width = min(max(1, width), size.width - rect.x), height = min(max(1, height), size.height - rect.y)
        if let ratio = ratio.value(on: size) {
            if widthLeads { height = Int((Double(width) / ratio).rounded()) } else { width = Int((Double(height) * ratio).rounded()) }
            // Past the picture's edge, the other side gives way.
            let roomWidth = shrinkOnly ? min(rect.width, size.width - rect.x) : size.width - rect.x
            let roomHeight = shrinkOnly ? min(rect.height, size.height - rect.y) : size.height - rect.y
            if width > roomWidth { width = roomWidth; height = Int((Double(width) / ratio).rounded()) }
            if height > roomHeight { height = roomHeight; width = Int((Double(height) * ratio).rounded()) }
            width = min(max(1, width), size.width - rect.x)
            height = min(max(1, height), size.height - rect.y)
        }
        rect.width = width
        rect.height = height
    }
}
