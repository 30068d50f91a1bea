import CWebP
import ThumbnailKit

/// Still WebP thumbnails through libwebp, decoded straight at the thumbnail's size by its own
/// rescaler, without opening libvips. nil leaves the file to libvips: an animation (its first
/// frame is composed by libvips), a file over 256 MB, or one libwebp cannot read.
enum WebPFileDecoder {
    static let largestFile = 256 << 20

    static func thumbnail(path: String, box: PixelSize, cancellation: CancellationFlag) throws(ThumbnailError) -> PixelImage? {
        guard let file = try? FileBytes(path: path), file.size <= largestFile else { return nil }
        let bytes = file.readAll(limit: largestFile)
        try cancellation.check()
        var width: Int32 = 0, height: Int32 = 0, animated: Int32 = 0
        guard bytes.count == file.size, CWebP_features(bytes, bytes.count, &width, &height, &animated) == 0,
              animated == 0, width > 0, height > 0 else { return nil }
        let orientation = exifOrientation(bytes) ?? 1
        let stored = PixelSize(width: Int(width), height: Int(height))
        let fitted = ThumbnailGeometry.fit(stored, in: ThumbnailGeometry.storedBox(box, orientation: orientation))
        var pixels = [UInt8](repeating: 0, count: fitted.width * fitted.height * 4)
        let scales: Int32 = fitted == stored ? 0 : 1
        let status = pixels.withUnsafeMutableBufferPointer {
            CWebP_decode_scaled(bytes, bytes.count, Int32(fitted.width), Int32(fitted.height), scales, $0.baseAddress, $0.count)
        }
        guard status == 0 else { return nil }
        return PixelImage(width: fitted.width, height: fitted.height, pixels: pixels).applyingOrientation(orientation)
    }

    /// The orientation in the file's EXIF chunk (a TIFF structure, sometimes behind "Exif\0\0").
    static func exifOrientation(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else { return nil }
        var orientation: Int?
        WebPChunks.walk(size: bytes.count, read: { Array(bytes[$0..<min($0 + $1, bytes.count)]) }) { code, offset, length in
            // A chunk that passes the file's end ends the walk: nothing after it can be read.
            guard length <= bytes.count - offset else { return false }
            guard code == "EXIF" else { return true }
            var exif = Array(bytes[offset..<offset + length])
            if exif.starts(with: Array("Exif\0\0".utf8)) { exif.removeFirst(6) }
            orientation = TIFFReader(exif)?.orientation
            return false
        }
        return orientation
    }
}
