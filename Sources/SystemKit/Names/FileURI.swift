/// `file://` URIs as GLib's `g_filename_to_uri` writes them, because the freedesktop thumbnail
/// cache is keyed by the MD5 of exactly that string: every file manager must escape alike.
public enum FileURI {
    /// Characters GLib leaves unescaped in a path.
    private static let allowed: Set<UInt8> = {
        var set = Set<UInt8>()
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { set.insert(byte) }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { set.insert(byte) }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { set.insert(byte) }
        for character in "!$&'()*+,-./:=@_~" { set.insert(character.asciiValue!) }
        return set
    }()

    /// `file:///home/jens/photos/me.png` for `/home/jens/photos/me.png`.
    public static func from(absolutePath path: String) -> String {
        "file://" + escape(Array(path.utf8))
    }

    /// Percent-escapes bytes the way GLib does (upper-case hex).
    public static func escape(_ bytes: [UInt8]) -> String {
        var out = ""
        for byte in bytes {
            if allowed.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xf, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// The absolute path for a `file://` URI, or nil for other URIs.
    public static func path(from uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var bytes: [UInt8] = []
        var rest = Array(uri.utf8.dropFirst(7))[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
