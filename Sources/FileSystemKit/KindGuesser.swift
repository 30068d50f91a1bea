import SystemKit

/// The kind of an entry from its name's extension, remembered per extension: a folder of
/// 100,000 photos asks the content type table a handful of times, not 100,000.
public struct KindGuesser {
    private var known: [UInt64: ContentKind] = [:]

    public init() {}

    public mutating func kind(of name: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> ContentKind {
        if isDirectory { return .folder }
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return .unknown }
        let extensionBytes = UnsafeBufferPointer(rebasing: name[(dot + 1)...])
        // Short ASCII extensions (nearly all) are remembered under an 8-byte key.
        guard extensionBytes.count <= 8, !extensionBytes.contains(where: { $0 >= 0x80 || $0 == 0 }) else { return Self.lookUp(name) }
        var key: UInt64 = 0
        for byte in extensionBytes { key = key << 8 | UInt64(NaturalOrder.folded(byte)) }
        if let kind = known[key] { return kind }
        let kind = Self.lookUp(name)
        known[key] = kind
        return kind
    }

    private static func lookUp(_ name: UnsafeBufferPointer<UInt8>) -> ContentKind {
        ContentTypeTable.type(forFileName: String(decoding: name, as: UTF8.self))?.kind ?? .unknown
    }
}
