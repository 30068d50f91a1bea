import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Absolute, normalised paths (no `.`, `..` or doubled slashes), without resolving symbolic
/// links: the form a file manager shows, and so the form thumbnail URIs are made from.
public enum PathNormalizer {
    public static func absolute(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = getcwd(&buffer, buffer.count) != nil ? String(fileSystemBytes: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }) : "/"
            full = cwd + "/" + path
        }
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
