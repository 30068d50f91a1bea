import SystemKit

/// One item of a folder listing, as the browser shows it. Made on demand from an `EntryStore`
/// for the rows on screen; a folder's listing is kept packed, not as an array of these.
public struct Entry: Sendable, Equatable {
    /// The name as bytes (file names need not be UTF-8).
    public let nameBytes: [UInt8]
    /// The name as the string that carries its bytes (`FileSystemBytes`): what paths are made of.
    public let name: String
    public let isDirectory: Bool
    public let isSymbolicLink: Bool
    public let size: Int
    /// Modification time, seconds since 1970.
    public let modified: Int
    public let kind: ContentKind

    public init(nameBytes: [UInt8], isDirectory: Bool, isSymbolicLink: Bool = false, size: Int, modified: Int, kind: ContentKind? = nil) {
        self.nameBytes = nameBytes
        self.name = String(fileSystemBytes: nameBytes)
        self.isDirectory = isDirectory
        self.isSymbolicLink = isSymbolicLink
        self.size = size
        self.modified = modified
        self.kind = kind ?? (isDirectory ? .folder : (ContentTypeTable.type(forFileName: name)?.kind ?? .unknown))
    }

    /// Convenience for tests and callers with a String name.
    public init(name: String, isDirectory: Bool = false, size: Int = 0, modified: Int = 0) {
        self.init(nameBytes: name.fileSystemBytes, isDirectory: isDirectory, size: size, modified: modified)
    }

    public var isHidden: Bool { nameBytes.first == UInt8(ascii: ".") }

    /// The name safe to draw: control characters and escapes shown as visible escapes.
    public var displayName: String { TerminalText.escaped(bytes: nameBytes) }

    /// The display name without its extension (for `e`), folders unchanged.
    public var displayNameWithoutExtension: String {
        guard !isDirectory, let dot = nameBytes.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return displayName }
        return TerminalText.escaped(bytes: Array(nameBytes[..<dot]))
    }

    /// The file's path inside `folder`.
    public func path(in folder: String) -> String {
        folder == "/" ? "/" + name : folder + "/" + name
    }
}
