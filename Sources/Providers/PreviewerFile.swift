import ThumbnailKit

/// One `.previewer` file: a command that shows files of some exact MIME types in Quick Look, as
/// Quick Look preview extensions do on macOS (see docs/PREVIEWERS.md).
///
/// ```ini
/// [Previewer Entry]
/// TryExec=glow
/// Exec=glow --style=dark --width=%c %i
/// MimeType=text/markdown;
/// Output=text
/// Override=true
/// ```
///
/// `Output` is `text` (standard output, SGR colours allowed) or `image` (a picture written to
/// `%o`, or printed on standard output when the line has no `%o`); without it, `image` when the
/// line names `%o`, else `text`. `Override=true` makes it win over the browser's built-in view.
public struct PreviewerFile: Sendable, Equatable {
    /// The file's base name without `.previewer` (`glow`): the preview's source.
    public let name: String
    /// Where the file was read from.
    public let path: String
    public let tryExec: String?
    /// The raw `Exec` value (string escapes resolved; quoting and field codes not yet).
    public let exec: String
    /// The MIME types listed, lower case, in file order.
    public let mimeTypes: [String]
    public let output: PreviewerInfo.Output
    public let overridesBuiltIn: Bool

    public init(name: String, path: String, tryExec: String?, exec: String, mimeTypes: [String], output: PreviewerInfo.Output,
                overridesBuiltIn: Bool) {
        self.name = name
        self.path = path
        self.tryExec = tryExec
        self.exec = exec
        self.mimeTypes = mimeTypes
        self.output = output
        self.overridesBuiltIn = overridesBuiltIn
    }

    /// Whether the `Exec` line names an output file (`%o`); if not, a picture comes on standard output.
    public var writesOutputFile: Bool { Self.namesOutputFile(exec) }

    /// What the browser is told about this previewer when it serves `mimeType`.
    public func info(for mimeType: String) -> PreviewerInfo {
        PreviewerInfo(name: name, path: path, mimeType: mimeType, output: output, overridesBuiltIn: overridesBuiltIn)
    }

    /// Parses the text of a `.previewer` file; nil when it has no `[Previewer Entry]` group with an
    /// `Exec` and at least one MIME type, or when `Output` or `Override` has a value not listed above
    /// (a typo must not silently change what is shown).
    public static func parse(_ text: String, path: String) -> PreviewerFile? {
        let keys = DesktopEntryText.keys(text, group: "Previewer Entry")
        let types = DesktopEntryText.mimeTypes(keys["MimeType"])
        guard let exec = keys["Exec"], !exec.isEmpty, !types.isEmpty,
              let overrides = keys["Override"].map(DesktopEntryText.boolean) ?? false else { return nil }
        let output: PreviewerInfo.Output
        switch keys["Output"]?.lowercased() {
        case "text": output = .text
        case "image": output = .image
        case nil: output = namesOutputFile(exec) ? .image : .text
        default: return nil
        }
        return PreviewerFile(name: DesktopEntryText.name(of: path, suffix: ".previewer"), path: path,
                             tryExec: keys["TryExec"].flatMap { $0.isEmpty ? nil : $0 }, exec: exec, mimeTypes: types,
                             output: output, overridesBuiltIn: overrides)
    }

    private static func namesOutputFile(_ exec: String) -> Bool {
        ThumbnailerCommand.split(exec)?.contains { $0.replacing("%%", with: "").contains("%o") } ?? false
    }
}
