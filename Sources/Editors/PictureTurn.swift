import ThumbnailKit

/// A turn or mirror of a picture: one of the eight ways a rectangle maps onto itself, as a 2×2
/// matrix on (x right, y down). Composing them answers which transform of the stored pixels
/// gives the turn the person asked for on the picture as displayed (EXIF orientation included).
struct PictureTurn: Equatable {
    let a: Int, b: Int, c: Int, d: Int

    static let identity = PictureTurn(a: 1, b: 0, c: 0, d: 1)
    /// A quarter turn clockwise: right goes to the bottom.
    static let quarter = PictureTurn(a: 0, b: -1, c: 1, d: 0)
    static let mirror = PictureTurn(a: -1, b: 0, c: 0, d: 1)
    static let upsideDown = PictureTurn(a: 1, b: 0, c: 0, d: -1)
    static let transpose = PictureTurn(a: 0, b: 1, c: 1, d: 0)
    static let transverse = PictureTurn(a: 0, b: -1, c: -1, d: 0)

    /// This turn after `first`.
    func after(_ first: PictureTurn) -> PictureTurn {
        PictureTurn(a: a * first.a + b * first.c, b: a * first.b + b * first.d, c: c * first.a + d * first.c, d: c * first.b + d * first.d)
    }

    /// The turn that undoes this one (these matrices are orthogonal: the transpose).
    var inverse: PictureTurn { PictureTurn(a: a, b: c, c: b, d: d) }

    /// Turns the sides' lengths over.
    var swapsSides: Bool { a == 0 }

    /// `quarterTurns` clockwise, after a mirror when `flip`.
    init(quarterTurns: Int, flip: Bool) {
        var turn = flip ? Self.mirror : Self.identity
        for _ in 0..<(((quarterTurns % 4) + 4) % 4) { turn = Self.quarter.after(turn) }
        self = turn
    }

    init(a: Int, b: Int, c: Int, d: Int) {
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
    }

    /// What EXIF orientation `tag` (1–8) does to the stored pixels to display them.
    static func exifOrientation(_ tag: Int) -> PictureTurn {
        switch tag {
        case 2: .mirror
        case 3: PictureTurn(quarterTurns: 2, flip: false)
        case 4: .upsideDown
        case 5: .transpose
        case 6: .quarter
        case 7: .transverse
        case 8: PictureTurn(quarterTurns: 3, flip: false)
        default: .identity
        }
    }

    /// The turn of the stored pixels that shows as `wanted` on the picture as displayed through
    /// EXIF orientation `tag`: the orientation undone, the turn, the orientation again.
    static func stored(for wanted: PictureTurn, orientation tag: Int) -> PictureTurn {
        let orientation = exifOrientation(tag)
        return orientation.inverse.after(wanted.after(orientation))
    }

    /// As quarter turns clockwise after an optional mirror (how libvips is asked).
    var quarterTurnsAndFlip: (quarterTurns: Int, flip: Bool) {
        for flip in [false, true] {
            for turns in 0..<4 where PictureTurn(quarterTurns: turns, flip: flip) == self { return (turns, flip) }
        }
        return (0, false)
    }
}

extension PictureTurn {
    /// Where `rect` of a picture `width`×`height` lands once the picture is turned so (the picture
    /// turned about its centre, then set back at the origin).
    func map(_ rect: PixelRect, width: Int, height: Int) -> PixelRect {
        let (turnedWidth, turnedHeight) = swapsSides ? (height, width) : (width, height)
        // In doubled coordinates about the centre, every corner stays a whole number.
        func corner(_ x: Int, _ y: Int) -> (Int, Int) {
            let (u, v) = (2 * x - width, 2 * y - height)
            return ((a * u + b * v + turnedWidth) / 2, (c * u + d * v + turnedHeight) / 2)
        }
        let first = corner(rect.x, rect.y), second = corner(rect.x + rect.width, rect.y + rect.height)
        return PixelRect(x: min(first.0, second.0), y: min(first.1, second.1), width: abs(first.0 - second.0), height: abs(first.1 - second.1))
    }
}
