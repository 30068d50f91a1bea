import SystemKit
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// A FLAC file's STREAMINFO after a stream copy: libav copies the source's, whose sample count
/// and MD5 describe the whole source, so a trimmed song would claim the source's length. The
/// count is set to what was kept, and the MD5 to zero (the specification's "not known").
enum FLACStreamInfo {
    static func setSampleCount(_ samples: Int64, in path: String) throws(ThumbnailError) {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw ThumbnailError(.writeFailed, "cannot reopen the trimmed file") }
        defer { close(fd) }
        // "fLaC", a metadata block header (type 0, STREAMINFO, length 34), then STREAMINFO.
        var head = [UInt8](repeating: 0, count: 42)
        guard pread(fd, &head, 42, 0) == 42, head.starts(with: Array("fLaC".utf8)), head[4] & 0x7F == 0 else { return }
        let total = UInt64(max(0, samples)) & 0xF_FFFF_FFFF  // 36 bits
        head[8 + 13] = (head[8 + 13] & 0xF0) | UInt8(total >> 32)
        for byte in 0..<4 { head[8 + 14 + byte] = UInt8(truncatingIfNeeded: total >> (24 - 8 * UInt64(byte))) }
        for byte in 18..<34 { head[8 + byte] = 0 }
        guard pwrite(fd, head, 42, 0) == 42, fsync(fd) == 0 else { throw ThumbnailError(.writeFailed, "cannot finish the trimmed file") }
    }
}
