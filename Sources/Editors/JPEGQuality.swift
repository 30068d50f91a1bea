/// A JPEG's quality setting (the IJG scale, 1–100) estimated from its luminance quantisation
/// table, so that a picture that must be re-encoded (Markup) keeps about the quality and size
/// it had: the table's sum against the standard table's gives the scale libjpeg applied.
enum JPEGQuality {
    /// The estimate, or nil when the header has no 8×8 luminance table (then the caller picks).
    static func estimate(header: [UInt8]) -> Int? {
        guard let table = luminanceTable(header) else { return nil }
        let percent = 100 * Double(table.reduce(0, +)) / Double(standardLuminance.reduce(0, +))
        let quality = percent <= 100 ? (200 - percent) / 2 : 5000 / percent
        return min(100, max(1, Int(quality.rounded())))
    }

    /// Table 0 of the first DQT segments before the picture data.
    private static func luminanceTable(_ bytes: [UInt8]) -> [Int]? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }  // the picture data starts, or the end
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            if marker == 0xDB {
                var table = offset + 4
                while table < offset + 2 + length {
                    let precision = bytes[table] >> 4, identifier = bytes[table] & 15
                    let size = precision == 0 ? 64 : 128
                    guard table + 1 + size <= offset + 2 + length else { return nil }
                    let values = (0..<64).map { precision == 0 ? Int(bytes[table + 1 + $0]) : Int(bytes[table + 1 + 2 * $0]) << 8 | Int(bytes[table + 2 + 2 * $0]) }
                    if identifier == 0 { return values }
                    table += 1 + size
                }
            }
            offset += 2 + length
        }
        return nil
    }

    /// The JPEG specification's example luminance table (Annex K), which libjpeg scales.
    private static let standardLuminance: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]
}
