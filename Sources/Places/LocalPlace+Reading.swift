import FileSystemKit
import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

extension LocalPlace {
    public func read(_ path: String, offset: Int, length: Int) async throws(FileSystemError) -> [UInt8] {
        guard offset >= 0, length >= 0 else { throw FileSystemError(code: .invalid, path: path, context: "a negative range") }
        return try await call(path) { () throws(FileSystemError) -> [UInt8] in
            let fd: Int32
            do throws(UntrustedFile.Failure) {
                fd = try UntrustedFile.openRegular(path, links: .followed)
            } catch {
                throw .system(error.errno, "cannot read the file", path: path, call: "open")
            }
            defer { close(fd) }
            var bytes = [UInt8](repeating: 0, count: length)
            var got = 0
            while got < length {
                let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, length - got, off_t(offset + got)) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw .system(errno, "cannot read the file", path: path, call: "pread") }
                if count == 0 { break }
                got += count
            }
            return Array(bytes[..<got])
        }
    }

    public func write(_ bytes: [UInt8], to path: String) async throws(FileSystemError) {
        try await call(path) { () throws(FileSystemError) in
            // A temporary in the same folder, flushed, then renamed over the name: readers see the
            // old content or the new. A replaced file keeps its permissions; a new one gets 0644.
            var info = stat()
            let permissions = stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o644
            let slash = path.lastIndex(of: "/")
            let folder = slash.map { String(path[..<$0]) } ?? "."
            let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
            let file = try TemporaryFile.create(template: "\(folder.isEmpty ? "/" : folder)/.\(FileSystemBytes.prefix(of: base, bytes: 200)).XXXXXX.tmp", suffixLength: 4)
            var placed = false
            defer {
                close(file.descriptor)
                if !placed { _ = unlink(file.path) }
            }
            guard FileDescriptorWriter.writeAll(bytes, to: file.descriptor) else { throw .system(errno, "cannot write the file", path: path, call: "write") }
            fchmod(file.descriptor, permissions)
            if fsync(file.descriptor) != 0 && errno != EINVAL && errno != EROFS { throw .system(errno, "cannot write the file", path: path, call: "fsync") }
            guard SystemKit.rename(file.path, path) == 0 else { throw .system(errno, "cannot put the file in place", path: path, call: "rename") }
            placed = true
        }
    }
}
