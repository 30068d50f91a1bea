internal import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// A new, uniquely named file, opened close-on-exec from the start (mkostemps), for writers that
/// fill a temporary and rename it into place.
public struct TemporaryFile: Sendable {
    /// The open file (O_RDWR, O_CLOEXEC); the caller closes it.
    public let descriptor: Int32
    /// Its name, the template with the X replaced; the caller renames or removes it.
    public let path: String

    /// Creates a file from `template`, whose six X before the last `suffixLength` characters are
    /// replaced ("/dir/.name.XXXXXX.tmp", suffix 4).
    public static func create(template: String, suffixLength: Int32) throws(FileSystemError) -> TemporaryFile {
        var bytes = template.fileSystemBytes.map { CChar(bitPattern: $0) } + [0]
        let fd = try SystemCall.run("mkostemps", path: template) {
            bytes.withUnsafeMutableBufferPointer { CSystem_mkostemps($0.baseAddress!, suffixLength, O_CLOEXEC) }
        }
        return TemporaryFile(descriptor: fd, path: bytes.withUnsafeBufferPointer { String(fileSystemRepresentation: $0.baseAddress!) })
    }
}
