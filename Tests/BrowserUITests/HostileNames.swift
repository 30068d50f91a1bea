import PropertyBased
#if canImport(Glibc)
import Glibc
#endif

/// Generated file names that break programs which treat names as text: bytes that are not UTF-8,
/// U+FFFD beside the byte it would replace, NFC and NFD spellings of one letter, control
/// characters, a leading `-`, the scalars `FileSystemBytes` reserves, and names of 255 bytes.
enum HostileNames {
    /// Pieces a name is made of, as bytes.
    static let fragments: [[UInt8]] = [
        Array("photo".utf8), Array("a b".utf8), Array("-rf".utf8), Array(".jpg".utf8),
        [0xFF], [0x80], [0xC3], [0xE9], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF5, 0x80],
        Array("\u{FFFD}".utf8), Array("é".utf8), Array("e\u{301}".utf8), Array("\u{EF80}".utf8), Array("\u{EFFF}".utf8),
        [0x0A], [0x1B], [0x09], [0x0D], Array("\\x41".utf8), Array("\\".utf8), Array("日本".utf8),
    ]

    /// One name: a few fragments, never empty, `.`, `..`, nor with `/` or NUL, at most 255 bytes.
    static let name = Gen.element(of: fragments).array(of: 1...5).map { pieces -> [UInt8] in
        var bytes = pieces.compactMap { $0 }.flatMap { $0 }
        if bytes.isEmpty || bytes == [0x2E] || bytes == [0x2E, 0x2E] { bytes = Array("x".utf8) + bytes }
        return Array(bytes.prefix(255))
    }

    /// Several distinct names, each with its look-alike twins: what a decoder that repairs bytes
    /// to U+FFFD makes of it, and a name padded to the 255-byte limit.
    static let names = name.array(of: 1...4).map { generated -> [[UInt8]] in
        var all: [[UInt8]] = []
        for bytes in generated {
            for candidate in [bytes, Array(String(decoding: bytes, as: UTF8.self).utf8).prefix(255).map { $0 }]
            where !all.contains(candidate) && !candidate.isEmpty {
                all.append(candidate)
            }
        }
        let long = Array(repeating: UInt8(0xFF), count: 200) + Array(repeating: UInt8(ascii: "L"), count: 55)
        if !all.contains(long) { all.append(long) }
        return all
    }

    /// The names in a folder as the kernel gives them (readdir's bytes, no decoding of ours).
    static func rawListing(_ folder: String) -> Set<[UInt8]> {
        var result = Set<[UInt8]>()
        guard let directory = folder.withCString({ Glibc.opendir($0) }) else { return result }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes != [0x2E] && bytes != [0x2E, 0x2E] { result.insert(bytes) }
        }
        return result
    }

    /// Writes `content` to the file whose path is `folder` + `/` + `name`'s bytes (no decoding of ours).
    static func write(_ content: [UInt8], folder: String, name: [UInt8]) {
        let path = Array(folder.utf8) + [0x2F] + name + [0]
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) } }
        precondition(fd >= 0, "cannot create a test file: errno \(errno)")
        _ = content.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// The content of the file at `folder`/`name` (raw bytes), nil when there is none.
    static func read(folder: String, name: [UInt8]) -> [UInt8]? {
        let path = Array(folder.utf8) + [0x2F] + name + [0]
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY) } }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return count >= 0 ? Array(buffer.prefix(count)) : nil
    }

    /// What each file holds: its own name, so that a file acted on in place of its twin shows.
    static func content(of name: [UInt8]) -> [UInt8] { Array("content of ".utf8) + name }
}
