import CJPEG
#if canImport(Glibc)
import Glibc
#endif

/// Decodes a baseline JPEG held in memory at its full size, in the light process: the remote
/// place's thumbnails of photos cross the link as JPEG (several times smaller than PNG). A
/// damaged or unsuited JPEG (progressive, arithmetic, CMYK) gives nil, never an exit: libjpeg's
/// errors come back through the shim's `setjmp`.
public enum JPEGMemoryDecoder {
    public static func decode(_ bytes: [UInt8]) -> PixelImage? {
        guard !bytes.isEmpty else { return nil }
        var out: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0, sourceWidth: Int32 = 0, sourceHeight: Int32 = 0
        // A box larger than any picture: nothing is scaled.
        let status = bytes.withUnsafeBufferPointer { buffer in
            CJPEG_decode_scaled_bytes(buffer.baseAddress, UInt(buffer.count), 1 << 16, 1 << 16, nil, &out, &width, &height, &sourceWidth, &sourceHeight)
        }
        guard Int(status) == Int(CJPEG_OK), let out else { return nil }
        defer { free(out) }
        let count = Int(width) * Int(height) * 4
        guard count > 0 else { return nil }
        return PixelImage(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: out, count: count)))
    }
}
