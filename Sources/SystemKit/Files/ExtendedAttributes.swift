internal import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// A file's extended attributes (user tags, security labels, what other programs keep there).
public enum ExtendedAttributes {
    /// Copies every attribute the source file has that the target accepts; attributes the target
    /// refuses (ENOTSUP on FAT, a namespace it does not know) are left out.
    public static func copy(from input: Int32, to output: Int32) {
        let listSize = flistxattr(input, nil, 0)
        guard listSize > 0 else { return }
        var names = [CChar](repeating: 0, count: listSize)
        let got = flistxattr(input, &names, listSize)
        guard got > 0 else { return }
        var start = 0
        while start < got {
            let name = String(cString: Array(names[start...]))
            start += name.utf8.count + 1
            let valueSize = fgetxattr(input, name, nil, 0)
            guard valueSize >= 0 else { continue }
            var value = [UInt8](repeating: 0, count: max(1, valueSize))
            let read = fgetxattr(input, name, &value, valueSize)
            if read >= 0 { _ = fsetxattr(output, name, value, read, 0) }
        }
    }
}
