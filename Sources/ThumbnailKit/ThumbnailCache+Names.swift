import SystemKit

/// Where a file's thumbnails go in this cache: `<flavor>/md5(uri).png`, failures under `fail/`.
extension ThumbnailCache {
    /// Where the thumbnail of a file lives in the personal cache.
    public func path(forFile file: String, flavor: Flavor) -> String {
        path(forURI: FileURI.from(absolutePath: PathNormalizer.absolute(file)), flavor: flavor)
    }

    /// Where the thumbnail of the file at `uri` lives in the personal cache.
    func path(forURI uri: String, flavor: Flavor) -> String {
        "\(root)/\(flavor.rawValue)/\(MD5.hex(uri)).png"
    }

    public func failurePath(forFile file: String) -> String {
        "\(root)/fail/qlbrowse-\(EngineVersion.string)/\(MD5.hex(FileURI.from(absolutePath: PathNormalizer.absolute(file)))).png"
    }

    /// True for files inside the cache itself, which are never thumbnailed into it.
    public func contains(_ file: String) -> Bool {
        PathNormalizer.absolute(file).hasPrefix(root + "/")
    }
}
