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
}
