/// One member of an archive, from its header (nothing is extracted).
public struct ArchiveMember: Sendable, Equatable, Codable {
    /// The path inside the archive as stored (`dir/file.txt`; folders may end in `/`). Names that
    /// are not valid UTF-8 have their bad bytes replaced; sanitise before showing (`TerminalText`).
    public let path: String
    /// Uncompressed size in bytes as the header declares it (0 when the header has none).
    public let size: Int64
    /// Modification time in seconds since 1970, when the header has one.
    public let modified: Int64?
    public let isDirectory: Bool
    public let isSymlink: Bool

    public init(path: String, size: Int64, modified: Int64?, isDirectory: Bool, isSymlink: Bool) {
        self.path = path
        self.size = size
        self.modified = modified
        self.isDirectory = isDirectory
        self.isSymlink = isSymlink
    }
}
