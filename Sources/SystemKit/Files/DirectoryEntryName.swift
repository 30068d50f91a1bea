#if canImport(Glibc)
import Glibc
#endif

extension dirent {
    /// The entry's name as `readdir` gave it (NUL-terminated `d_name`), decoded as UTF-8 with
    /// repairs, so a name with invalid bytes still comes back as a string.
    public var name: String {
        withUnsafePointer(to: d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}
