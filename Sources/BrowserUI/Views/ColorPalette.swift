/// The xterm 256-colour palette, and the nearest colour a smaller terminal has: themes are written
/// in 256 colours and still look right (if plainer) on 8- and 16-colour terminals.
enum ColorPalette {
    /// RGB of a palette index (0…255).
    static func rgb(_ index: Int32) -> (Int, Int, Int) {
        let basic: [(Int, Int, Int)] = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
                                        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]
        switch index {
        case 0..<16: return basic[Int(index)]
        case 16..<232:
            let value = Int(index) - 16
            let levels = [0, 95, 135, 175, 215, 255]
            return (levels[value / 36], levels[(value / 6) % 6], levels[value % 6])
        default:
            let grey = 8 + (Int(index) - 232) * 10
            return (grey, grey, grey)
        }
    }

    /// The palette index nearest to a true colour (from the 256).
    static func nearest256(red: Int, green: Int, blue: Int) -> Int {
        Int(nearest(to: (red, green, blue), among: 0..<256))
    }

    /// `index` if the terminal has it, else the nearest of the colours it has; -1 (default) stays.
    /// A grey is never given a hue (the nearest of 8 colours to mid grey is yellow: sizes and
    /// dates came out yellow on white, issue 23): a grey background becomes black or white, a grey
    /// `foreground` the terminal's own text colour unless it is near black or white, since a mid
    /// grey cannot be told from the background it was meant for (unknown: light or dark).
    static func nearest(_ index: Int32, available: Int, foreground: Bool = false) -> Int32 {
        guard index >= 0 else { return -1 }
        if index < Int32(available) { return index }
        let colour = rgb(index)
        let small = min(available, 16)
        if colour.0 == colour.1 && colour.1 == colour.2 {
            if foreground && (48...207).contains(colour.0) { return -1 }
            let greys: [Int32] = small >= 16 ? [0, 8, 7, 15] : [0, 7]
            return greys.min { distance(rgb($0), colour) < distance(rgb($1), colour) } ?? -1
        }
        return nearest(to: colour, among: 0..<Int32(small))
    }

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        (a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1) + (a.2 - b.2) * (a.2 - b.2)
    }

    private static func nearest(to target: (Int, Int, Int), among candidates: Range<Int32>) -> Int32 {
        var best: Int32 = 0
        var bestDistance = Int.max
        for candidate in candidates {
            let color = rgb(candidate)
            let distance = (color.0 - target.0) * (color.0 - target.0) + (color.1 - target.1) * (color.1 - target.1) + (color.2 - target.2) * (color.2 - target.2)
            if distance < bestDistance { bestDistance = distance; best = candidate }
        }
        return best
    }
}
