/// A custom previewer (a `.previewer` file) as the worker found it for a file or lists it: enough
/// for the browser to decide whether to show it instead of its own view, and to say where it came
/// from.
public struct PreviewerInfo: Codable, Sendable, Equatable {
    /// What a previewer prints.
    public enum Output: String, Codable, Sendable {
        /// Text on standard output, possibly with SGR colour sequences.
        case text
        /// A picture (PNG, JPEG…) written to `%o` or printed on standard output.
        case image
    }

    /// The file's base name without `.previewer` (`glow`): shown as the preview's source.
    public let name: String
    /// Where the `.previewer` file is.
    public let path: String
    /// The MIME type it was chosen for, as the worker sniffed it (or as the file lists it, in a
    /// listing of every previewer).
    public let mimeType: String
    public let output: Output
    /// `Override=true`: the previewer wins over the browser's built-in view for its types. By
    /// default built-in views win, and the previewer serves the types the browser has no view for.
    public let overridesBuiltIn: Bool

    public init(name: String, path: String, mimeType: String, output: Output, overridesBuiltIn: Bool) {
        self.name = name
        self.path = path
        self.mimeType = mimeType
        self.output = output
        self.overridesBuiltIn = overridesBuiltIn
    }
}
