/// One freedesktop `.thumbnailer` file: the command that makes thumbnails for a list of MIME
/// types, as GNOME, KDE and most file managers install them (`/usr/share/thumbnailers`).
///
/// ```ini
/// [Thumbnailer Entry]
/// TryExec=ffmpegthumbnailer
/// Exec=ffmpegthumbnailer -i %i -o %o -s %s -f
/// MimeType=video/mp4;video/x-matroska;
/// X-QLBrowse-MinimumDimension=64
/// ```
///
/// `X-QLBrowse-MinimumDimension` is qlbrowse's own key: below that box size (in pixels) the
/// command is not worth running and the generic icon is kept.
public struct ThumbnailerFile: Sendable, Equatable {
    /// The file's base name without `.thumbnailer` (`ffmpegthumbnailer`): the picture's source.
    public let name: String
    /// Where the file was read from.
    public let path: String
    public let tryExec: String?
    /// The raw `Exec` value (string escapes already resolved; quoting and field codes not yet).
    public let exec: String
    /// The MIME types listed, lower case, in file order.
    public let mimeTypes: [String]
    public let minimumDimension: Int?

    public init(name: String, path: String, tryExec: String?, exec: String, mimeTypes: [String], minimumDimension: Int?) {
        self.name = name
        self.path = path
        self.tryExec = tryExec
        self.exec = exec
        self.mimeTypes = mimeTypes
        self.minimumDimension = minimumDimension
    }

    /// Parses the text of a `.thumbnailer` file; nil when it has no `[Thumbnailer Entry]` group
    /// with an `Exec` and at least one MIME type.
    public static func parse(_ text: String, path: String) -> ThumbnailerFile? {
        let keys = DesktopEntryText.keys(text, group: "Thumbnailer Entry")
        let types = DesktopEntryText.mimeTypes(keys["MimeType"])
        guard let exec = keys["Exec"], !exec.isEmpty, !types.isEmpty else { return nil }
        let minimum = keys["X-QLBrowse-MinimumDimension"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        return ThumbnailerFile(name: DesktopEntryText.name(of: path, suffix: ".thumbnailer"), path: path,
                               tryExec: keys["TryExec"].flatMap { $0.isEmpty ? nil : $0 },
                               exec: exec, mimeTypes: types, minimumDimension: minimum)
    }
}
