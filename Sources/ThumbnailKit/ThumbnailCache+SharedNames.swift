import SystemKit

/// Where a file's thumbnails go in the shared repository beside it, named as the standard says.
extension ThumbnailCache {
    /// The shared repository entry (the standard's "Shared thumbnail repositories"):
    /// `.sh_thumbnails/<flavor>/md5(./escaped-name).png` beside the file.
    public static func sharedPath(forFile file: String, flavor: Flavor) -> String {
        let absolute = PathNormalizer.absolute(file)
        let slash = absolute.lastIndex(of: "/") ?? absolute.startIndex
        let folder = String(absolute[..<slash])
        return "\(folder)/.sh_thumbnails/\(flavor.rawValue)/\(sharedName(forFile: absolute))"
    }

    /// The name of a file's entry in its shared repository's size folders: `md5(./escaped-name).png`.
    public static func sharedName(forFile file: String) -> String {
        "\(MD5.hex(sharedURI(forFile: file))).png"
    }

    /// The relative URI a shared repository keys a file by, and writes as `Thumb::URI`: `./` and the
    /// file's escaped name (`./My%20Photo.jpg`).
    public static func sharedURI(forFile file: String) -> String {
        let name = PathNormalizer.absolute(file).split(separator: "/").last.map(String.init) ?? ""
        return "./" + FileURI.escape(name.fileSystemBytes)
    }
}
