import SystemKit
/// One thing a decoder learned about a file while making its picture: its pixel dimensions, a
/// video's duration and codec, a PDF's page count, the camera and date a photo was taken.
/// Shown in the preview pane and Quick Look; the values come from file content, so the UI
/// escapes them before drawing.
public struct FileFact: Sendable, Equatable, Codable {
    public let label: String
    public let value: String

    /// The fact a Motion Photo's picture carries (a movie inside): the browser shows a badge for it.
    public static let motionPhoto = "motion photo"

    /// Whether a file called `name` can be a Motion Photo (a JPEG or HEIC, which phones append the movie to).
    public static func mayBeMotionPhoto(_ name: String) -> Bool {
        ["jpg", "jpeg", "heic", "heif"].contains(name.split(separator: ".").last.map { $0.lowercased() } ?? "")
    }

    /// The size a "dimensions" fact ("4032×3024") gives, as shown (EXIF orientation applied).
    public static func dimensions(in facts: [FileFact]) -> PixelSize? {
        guard let value = facts.first(where: { $0.label == "dimensions" })?.value else { return nil }
        let sides = value.split(separator: "×").map { Int($0) }
        guard sides.count == 2, let width = sides[0], let height = sides[1], width > 0, height > 0 else { return nil }
        return PixelSize(width: width, height: height)
    }

    public init(_ label: String, _ value: String) {
        self.label = label
        self.value = value
    }

    /// `1:02:03` or `4:05` for a duration in seconds.
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        let total = Int(saturating: seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, (total % 3600) / 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}

extension FileFact {
    /// The cache's text key for a thumbnail's facts (PNG `tEXt`, so the facts come back with a
    /// cache hit on the next visit).
    public static let cacheKey = "X-QLBrowse::Facts"

    /// Facts as one `tEXt` value: `label=value` lines, each side percent-encoded to ASCII (tEXt
    /// is Latin-1; camera names and titles are not).
    public static func cacheText(_ facts: [FileFact]) -> String {
        facts.map { escaped($0.label) + "=" + escaped($0.value) }.joined(separator: "\n")
    }

    /// The facts written by `cacheText`; lines that do not parse are skipped.
    public static func parseCacheText(_ text: String) -> [FileFact] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let label = unescaped(parts[0]), let value = unescaped(parts[1]), !label.isEmpty else { return nil }
            return FileFact(label, value)
        }
    }

    private static func escaped(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") && byte != UInt8(ascii: "=") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }

    private static func unescaped(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex, utf8.index(after: high) < utf8.endIndex,
                      let value = UInt8(String(decoding: [utf8[high], utf8[utf8.index(after: high)]], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                index = utf8.index(high, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
