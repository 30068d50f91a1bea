/// MD5 (RFC 1321), for the freedesktop thumbnail cache, whose file names are the MD5 of the
/// file's URI, and for telling settings apart (`ServiceIdentity`). Not for anything that needs a
/// secure hash.
public enum MD5 {
    public static func hex(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for byte in digest(Array(text.utf8)) {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func digest(_ message: [UInt8]) -> [UInt8] {
        var a0: UInt32 = 0x67452301, b0: UInt32 = 0xefcdab89, c0: UInt32 = 0x98badcfe, d0: UInt32 = 0x10325476
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for shift in stride(from: 0, to: 64, by: 8) { padded.append(UInt8((bitLength >> UInt64(shift)) & 0xff)) }
        var words = [UInt32](repeating: 0, count: 16)
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                let base = chunk + index * 4
                words[index] = UInt32(padded[base]) | UInt32(padded[base + 1]) << 8 | UInt32(padded[base + 2]) << 16 | UInt32(padded[base + 3]) << 24
            }
            var a = a0, b = b0, c = c0, d = d0
            for step in 0..<64 {
                var f: UInt32
                let g: Int
                switch step {
                case 0..<16: f = (b & c) | (~b & d); g = step
                case 16..<32: f = (d & b) | (~d & c); g = (5 * step + 1) % 16
                case 32..<48: f = b ^ c ^ d; g = (3 * step + 5) % 16
                default: f = c ^ (b | ~d); g = (7 * step) % 16
                }
                f = f &+ a &+ constants[step] &+ words[g]
                a = d
                d = c
                c = b
                b = b &+ (f << shifts[step] | f >> (32 - shifts[step]))
            }
            a0 = a0 &+ a
            b0 = b0 &+ b
            c0 = c0 &+ c
            d0 = d0 &+ d
        }
        return [a0, b0, c0, d0].flatMap { word in (0..<4).map { UInt8((word >> UInt32($0 * 8)) & 0xff) } }
    }

    private static let shifts: [UInt32] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                           5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                                           4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                           6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]

    private static let constants: [UInt32] = (0..<64).map { index in
        var value = 0.0
        value = (Double(index + 1)).sin_abs * 4_294_967_296
        return UInt32(value.rounded(.down))
    }
}

private extension Double {
    /// |sin(x)| without Foundation, by argument reduction and a Taylor series (enough for MD5's table).
    var sin_abs: Double {
        let twoPi = 6.283185307179586476925286766559
        var x = self.truncatingRemainder(dividingBy: twoPi)
        if x > .pi { x -= twoPi }
        var term = x, sum = x
        for n in 1..<30 {
            term *= -x * x / Double((2 * n) * (2 * n + 1))
            sum += term
        }
        return abs(sum)
    }
}
