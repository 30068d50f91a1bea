/// Numbers and strings written in PDF syntax for the annotations Markup adds.
enum PDFNumber {
    /// A number with at most two decimals, never in exponent form ("12", "0.5", "-3.25").
    static func text(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : "", magnitude = abs(hundredths)
        let fraction = magnitude % 100
        if fraction == 0 { return sign + "\(magnitude / 100)" }
        let decimals = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0" : "") + "\(fraction)"
        return sign + "\(magnitude / 100).\(decimals)"
    }

    /// Numbers separated by spaces.
    static func list(_ values: [Double]) -> String { values.map(text).joined(separator: " ") }

    /// An array of numbers: "[0 0 10 20]".
    static func array(_ values: [Double]) -> String { "[" + list(values) + "]" }

    /// A text string as readers take it for /Contents: UTF-16BE with its byte order mark, in hex,
    /// so that any character survives and nothing needs escaping.
    static func textString(_ text: String) -> String {
        var hex = "<FEFF"
        for unit in text.utf16 {
            hex += PDFAnnotationBuilder.hex(UInt8(unit >> 8)) + PDFAnnotationBuilder.hex(UInt8(unit & 0xFF))
        }
        return hex + ">"
    }
}
