/// `file://` URIs as GLib's `g_filename_to_uri` writes them, because the freedesktop thumbnail
/// cache is keyed by the MD5 of exactly that string: every file manager must escape alike.
public enum FileURI {
    /// Characters GLib leaves unescaped in a path, as a table by byte value (a `Set<UInt8>` costs
    /// a short call more to create than all its escaping: its type is made at run time).
    private static let allowed: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
        for byte in "!$&'()*+,-./:=@_~".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// `file:///home/jens/photos/me.png` for `/home/jens/photos/me.png`.
    public static func from(absolutePath path: String) -> String {
        "file://" + escape(path.fileSystemBytes)
    }

    /// Percent-escapes bytes the way GLib does (upper-case hex).
    public static func escape(_ bytes: [UInt8]) -> String {
        let digits: StaticString = "0123456789ABCDEF"
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 4)
        digits.withUTF8Buffer { hex in
            for byte in bytes {
                if allowed[Int(byte)] {
                    out.append(byte)
                } else {
                    out.append(UInt8(ascii: "%"))
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xf)])
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The absolute path for a `file://` URI (`file://localhost/…` too), or nil for any other URI:
    /// another scheme, another host, a relative path, or an escaped NUL.
    public static func path(from uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var rest = Array(uri.utf8.dropFirst(7))[...]
        if rest.first != UInt8(ascii: "/") {
            // file://localhost/path is the same file; another host's is not here.
            guard rest.starts(with: "localhost/".utf8) else { return nil }
            rest = rest.dropFirst("localhost".utf8.count)
        }
        var bytes: [UInt8] = []
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        guard !bytes.contains(0) else { return nil }
        return String(fileSystemBytes: bytes)
    }
}
