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
