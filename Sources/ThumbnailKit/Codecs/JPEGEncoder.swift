import CJPEG
#if canImport(Glibc)
import Glibc
#endif

/// Encodes a `PixelImage` as a baseline JPEG; transparency is flattened onto white first.
public enum JPEGEncoder {
    public static func encode(_ image: PixelImage, quality: Int = 88) -> [UInt8] {
        let flat = image.flattened(onto: .white)
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        for index in 0..<(image.width * image.height) {
            rgb[index * 3] = flat.pixels[index * 4]
            rgb[index * 3 + 1] = flat.pixels[index * 4 + 1]
            rgb[index * 3 + 2] = flat.pixels[index * 4 + 2]
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        _ = rgb.withUnsafeBufferPointer {
            CJPEG_encode_rgb($0.baseAddress, Int32(image.width), Int32(image.height), Int32(quality), &output, &size)
        }
        guard let output else { return [] }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
