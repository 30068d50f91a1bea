/// Whole numbers with their thousands separated, as messages and the status line write counts.
public enum GroupedNumber {
    /// 120431 → "120,431"; -1234 → "-1,234".
    public static func text(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        let grouped = digits.enumerated().map { index, digit in (index > 0 && (digits.count - index) % 3 == 0 ? "," : "") + String(digit) }.joined()
        return (value < 0 ? "-" : "") + grouped
    }
}
