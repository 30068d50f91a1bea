/// A file's type as a MIME type string (`image/jpeg`), with the conformance questions the engine
/// asks of it: what kind of thing is this, which built-in provider routes it, which icon fits it.
public struct ContentType: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The MIME type, lower case.
    public let identifier: String

    public init(_ identifier: String) {
        self.identifier = identifier.lowercased()
    }

    public var description: String { identifier }

    public static let folder = ContentType("inode/directory")
    public static let unknown = ContentType("application/octet-stream")
    public static let empty = ContentType("inode/x-empty")
    public static let plainText = ContentType("text/plain")

    /// The top-level media type (`image` for `image/jpeg`).
    public var mediaType: Substring { identifier.split(separator: "/", maxSplits: 1).first ?? "" }

    /// The broad family this type belongs to, for icons and routing.
    public var kind: ContentKind { ContentTypeTable.kind(of: self) }
}

/// The broad families of content, one generic icon each.
public enum ContentKind: String, Sendable, CaseIterable, Codable {
    case folder, image, rawImage, video, audio, pdf, text, document, archive, unknown
}
