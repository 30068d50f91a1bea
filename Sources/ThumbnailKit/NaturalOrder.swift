/// Orders names as people expect: digits compare as numbers (`page2` before `page10`), letters
/// without regard to case, ties broken by the plain comparison so the order is total.
public enum NaturalOrder {
    public static func less(_ a: String, _ b: String) -> Bool {
        let order = compare(a, b)
        return order != 0 ? order < 0 : a < b
    }

    /// -1, 0 or 1.
    public static func compare(_ a: String, _ b: String) -> Int {
        var left = Array(a.unicodeScalars)[...], right = Array(b.unicodeScalars)[...]
        while let l = left.first, let r = right.first {
            if l.properties.numericType != nil && isDigit(l) && isDigit(r) {
                let leftDigits = left.prefix(while: isDigit), rightDigits = right.prefix(while: isDigit)
                let leftNumber = leftDigits.drop { $0 == "0" }, rightNumber = rightDigits.drop { $0 == "0" }
                if leftNumber.count != rightNumber.count { return leftNumber.count < rightNumber.count ? -1 : 1 }
                for (x, y) in zip(leftNumber, rightNumber) where x != y { return x.value < y.value ? -1 : 1 }
                left = left.dropFirst(leftDigits.count)
                right = right.dropFirst(rightDigits.count)
                continue
            }
            let lf = String(l).lowercased(), rf = String(r).lowercased()
            if lf != rf { return lf < rf ? -1 : 1 }
            left = left.dropFirst()
            right = right.dropFirst()
        }
        if left.isEmpty && right.isEmpty { return 0 }
        return left.isEmpty ? -1 : 1
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }

    /// A precomputed key for `compareKeys`: the name folded to lower case, as UTF-8.
    public static func key(_ name: String) -> [UInt8] { Array(name.lowercased().utf8) }

    /// The key for a name given as bytes; shares the bytes' storage when they are already lower-case
    /// ASCII (most file names), so a huge listing does not hold every name twice.
    public static func key(bytes: [UInt8], name: String) -> [UInt8] {
        if bytes.allSatisfy({ $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) }) { return bytes }
        return key(name)
    }

    /// The same order as `compare` on keys made by `key(_:)`, without allocating: for sorting
    /// folders of 100,000 entries on the fly.
    public static func compareKeys(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var i = 0, j = 0
        let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
        while i < a.count && j < b.count {
            let x = a[i], y = b[j]
            if x >= zero && x <= nine && y >= zero && y <= nine {
                var iEnd = i, jEnd = j
                while iEnd < a.count && a[iEnd] >= zero && a[iEnd] <= nine { iEnd += 1 }
                while jEnd < b.count && b[jEnd] >= zero && b[jEnd] <= nine { jEnd += 1 }
                var iStart = i, jStart = j
                while iStart < iEnd - 1 && a[iStart] == zero { iStart += 1 }
                while jStart < jEnd - 1 && b[jStart] == zero { jStart += 1 }
                let lengthA = iEnd - iStart, lengthB = jEnd - jStart
                if lengthA != lengthB { return lengthA < lengthB ? -1 : 1 }
                var k = 0
                while k < lengthA {
                    if a[iStart + k] != b[jStart + k] { return a[iStart + k] < b[jStart + k] ? -1 : 1 }
                    k += 1
                }
                i = iEnd
                j = jEnd
                continue
            }
            if x != y { return x < y ? -1 : 1 }
            i += 1
            j += 1
        }
        if i == a.count && j == b.count { return 0 }
        return i == a.count ? -1 : 1
    }
}
