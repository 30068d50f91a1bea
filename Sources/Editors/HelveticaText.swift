/// Text set in Helvetica, one of the 14 fonts every PDF reader has, so that a note's appearance
/// needs no embedded font: the text in WinAnsiEncoding (characters it lacks become "?"; the
/// note's /Contents keeps them all) and broken into lines that fit a width by the font's widths.
enum HelveticaText {
    /// The text as WinAnsiEncoding bytes.
    static func encode(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { scalar in
            let value = scalar.value
            if (0x20..<0x7F).contains(value) || (0xA0...0xFF).contains(value) { return UInt8(value) }
            return windows1252[value] ?? UInt8(ascii: "?")
        }
    }

    /// Lines of at most `width` points at `size` points, broken between words where they fit,
    /// inside a word where a word alone is too long; the text's own line breaks are kept.
    static func lines(_ text: String, width: Double, size: Double) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line: [UInt8] = []
            for word in encode(String(paragraph)).split(separator: 0x20, omittingEmptySubsequences: false) {
                let candidate = line.isEmpty ? Array(word) : line + [0x20] + word
                if advance(candidate, size: size) <= width || line.isEmpty && word.isEmpty {
                    line = candidate
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                line = []
                for byte in word {
                    if !line.isEmpty, advance(line + [byte], size: size) > width {
                        lines.append(line)
                        line = []
                    }
                    line.append(byte)
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// How far the text advances, in points.
    static func advance(_ bytes: [UInt8], size: Double) -> Double {
        Double(bytes.reduce(0) { $0 + width(of: $1) }) * size / 1000
    }

    /// Helvetica's advance widths (thousandths of the size) for ASCII, from its AFM; others 556.
    private static func width(of byte: UInt8) -> Int {
        guard (0x20..<0x7F).contains(byte) else { return 556 }
        return asciiWidths[Int(byte) - 0x20]
    }

    private static let asciiWidths: [Int] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  // space to /
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  // 0 to ?
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  // @ to O
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  // P to _
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  // ` to o
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,  // p to ~
    ]

    /// The characters WinAnsiEncoding puts at 0x80–0x9F.
    private static let windows1252: [UInt32: UInt8] = [
        0x20AC: 0x80, 0x201A: 0x82, 0x0192: 0x83, 0x201E: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87,
        0x02C6: 0x88, 0x2030: 0x89, 0x0160: 0x8A, 0x2039: 0x8B, 0x0152: 0x8C, 0x017D: 0x8E, 0x2018: 0x91,
        0x2019: 0x92, 0x201C: 0x93, 0x201D: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02DC: 0x98,
        0x2122: 0x99, 0x0161: 0x9A, 0x203A: 0x9B, 0x0153: 0x9C, 0x017E: 0x9E, 0x0178: 0x9F,
    ]
}
