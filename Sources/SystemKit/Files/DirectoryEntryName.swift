#if canImport(Glibc)
import Glibc
#endif

extension dirent {
    /// The entry's name as `readdir` gave it (NUL-terminated `d_name`), losslessly: a name that
    /// is not UTF-8 keeps its bytes (`FileSystemBytes`).
    public var name: String {
        withUnsafePointer(to: d_name) { String(fileSystemRepresentation: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}
