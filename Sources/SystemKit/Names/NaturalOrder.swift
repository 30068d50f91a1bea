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

    /// The same order as `compare` on keys made by `key(_:)`, without allocating.
    public static func compareKeys(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in compareFolded(x, y) } }
    }

    /// `compare` on UTF-8 names or keys in place, folding ASCII capitals on the fly (a key made by
    /// `key(_:)` is already folded, and folding again changes nothing): for sorting folders of
    /// 100,000 entries without touching the heap.
    @inlinable
    public static func compareFolded(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
        // Names in one folder often share a long prefix (`IMG_20240612_…`): skip the identical bytes
        // at once, backing up to the start of a run of digits so numbers still compare whole.
        var common = 0
        let shorter = min(a.count, b.count)
        while common < shorter && a[common] == b[common] { common += 1 }
        while common > 0 && a[common - 1] >= zero && a[common - 1] <= nine { common -= 1 }
        var i = common, j = common
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
            let fx = folded(x), fy = folded(y)
            if fx != fy { return fx < fy ? -1 : 1 }
            i += 1
            j += 1
        }
        if i == a.count && j == b.count { return 0 }
        return i == a.count ? -1 : 1
    }

    /// An ASCII capital as its small letter; every other byte as it is.
    @inlinable @inline(__always)
    public static func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// The start of a name as a number that orders like `compareFolded` wherever two numbers
    /// differ (equal numbers say nothing: compare the names then). Digit runs are written as their
    /// significant length and digits, so `a2` < `a10` holds for the numbers too.
    public static func prefixKey(_ name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var key: UInt64 = 0, used = 0, i = 0
        func emit(_ byte: UInt8) {
            if used < 8 {
                key = key << 8 | UInt64(byte)
                used += 1
            }
        }
        let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
        scan: while i < name.count && used < 8 {
            let byte = name[i]
            guard byte >= zero && byte <= nine else {
                emit(folded(byte))
                i += 1
                continue
            }
            var end = i
            while end < name.count && name[end] >= zero && name[end] <= nine { end += 1 }
            var start = i
            while start < end - 1 && name[start] == zero { start += 1 }
            // Runs of ten or more significant digits: the byte after "9" sorts them above any
            // shorter number, and the key stops (the rest is left to the full comparison).
            guard end - start <= 9 else {
                emit(zero + 10)
                break scan
            }
            emit(zero + UInt8(end - start))
            for index in start..<end { emit(name[index]) }
            i = end
        }
        return used == 8 ? key : key << (8 * UInt64(8 - used))
    }
}
