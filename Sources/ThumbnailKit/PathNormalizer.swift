import SystemKit
#if canImport(Glibc)
import Glibc
#endif

/// Absolute, normalised paths (no `.`, `..` or doubled slashes), without resolving symbolic
/// links: the form a file manager shows, and so the form thumbnail URIs are made from.
public enum PathNormalizer {
    public static func absolute(_ path: String) -> String {
        if isNormalAbsolute(path) { return path }
        var full = path.fileSystemBytes
        if full.first != UInt8(ascii: "/") { full = (workingFolderBytes() ?? [UInt8(ascii: "/")]) + [UInt8(ascii: "/")] + full }
        // Built as bytes (a name need not be UTF-8); the components' ends, to drop one for "..".
        var normal: [UInt8] = []
        var ends: [Int] = []
        for part in full.split(separator: UInt8(ascii: "/")) {
            if part.count == 1 && part.first == UInt8(ascii: ".") { continue }
            if part.count == 2 && part.allSatisfy({ $0 == UInt8(ascii: ".") }) {
                if ends.popLast() != nil { normal.removeSubrange((ends.last ?? 0)...) }
                continue
            }
            normal.append(UInt8(ascii: "/"))
            normal.append(contentsOf: part)
            ends.append(normal.count)
        }
        return normal.isEmpty ? "/" : String(fileSystemBytes: normal)
    }

    /// Whether `path` is absolute and already normal: no empty, `.` or `..` component, no slash
    /// at the end (checked on its bytes, without splitting it: most paths are).
    static func isNormalAbsolute(_ path: String) -> Bool {
        var utf8 = path.utf8.makeIterator()
        guard utf8.next() == UInt8(ascii: "/") else { return false }
        // The length of the component being read, and whether it is only dots so far.
        var length = 0, dots = 0
        var any = false
        while let byte = utf8.next() {
            any = true
            if byte == UInt8(ascii: "/") {
                if length == 0 || (dots == length && dots <= 2) { return false }
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        // "/" alone is normal; otherwise the last component must be a real name.
        return !any || (length > 0 && !(dots == length && dots <= 2))
    }
}
