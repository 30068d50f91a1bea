import CJPEG

#if canImport(Glibc)
import Glibc
#endif

/// Baseline JPEGs (what cameras and phones write) decoded straight through libjpeg with DCT
/// scaling, then averaged down to the box: the same shrink-on-load libvips does, without its
/// pipeline around it (about a third less CPU per camera JPEG, measured by
/// Benchmarks/thumbnails.sh). Progressive, arithmetic-coded and CMYK JPEGs are left to libvips.
/// `cancel` (a C int set to non-zero to stop, as `CancellationFlag.cFlag`) is polled between rows.
package enum JPEGDecoder {
    package enum Outcome {
        case image(PixelImage)
        /// A JPEG this decoder leaves to libvips (or not a JPEG it could read at all).
        case unsuited
    }

    /// A thumbnail fitting `box`, the EXIF `orientation` (1…8) applied; never larger than the image.
    package static func thumbnail(path: String, box: PixelSize, orientation: Int, cancel: UnsafeMutablePointer<Int32>?) throws(ThumbnailError) -> Outcome {
        try decode(box: box, orientation: orientation) { storedBox, pixels, width, height, sourceWidth, sourceHeight in
            CJPEG_decode_scaled(path, Int32(storedBox.width), Int32(storedBox.height), cancel,
                                &pixels, &width, &height, &sourceWidth, &sourceHeight)
        }
    }

    /// The same from a JPEG in memory (a preview the file embeds), without loading libvips.
    package static func thumbnail(bytes: [UInt8], box: PixelSize, orientation: Int, cancel: UnsafeMutablePointer<Int32>?) throws(ThumbnailError) -> Outcome {
        try decode(box: box, orientation: orientation) { storedBox, pixels, width, height, sourceWidth, sourceHeight in
            bytes.withUnsafeBufferPointer { buffer in
                CJPEG_decode_scaled_bytes(buffer.baseAddress, UInt(buffer.count), Int32(storedBox.width), Int32(storedBox.height), cancel,
                                          &pixels, &width, &height, &sourceWidth, &sourceHeight)
            }
        }
    }

    private static func decode(box: PixelSize, orientation: Int,
                               _ call: (PixelSize, inout UnsafeMutablePointer<UInt8>?, inout Int32, inout Int32, inout Int32, inout Int32) -> Int32)
        throws(ThumbnailError) -> Outcome {
        let storedBox = ThumbnailGeometry.storedBox(box, orientation: orientation)
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0, sourceWidth: Int32 = 0, sourceHeight: Int32 = 0
        let status = call(storedBox, &pixels, &width, &height, &sourceWidth, &sourceHeight)
        defer { free(pixels) }
        switch Int(status) {
        case Int(CJPEG_OK): break
        case Int(CJPEG_CANCELLED): throw ThumbnailError(.cancelled, "cancelled")
        case Int(CJPEG_UNREADABLE): throw ThumbnailError(.unreadable, String(cString: strerror(errno)))
        default: return .unsuited
        }
        guard let pixels, width > 0, height > 0 else { return .unsuited }
        let decoded = PixelImage(width: Int(width), height: Int(height),
                                 pixels: [UInt8](UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4)))
        let fitted = ThumbnailGeometry.fit(PixelSize(width: Int(sourceWidth), height: Int(sourceHeight)), in: storedBox)
        return .image(decoded.resized(to: fitted).applyingOrientation(orientation))
    }
}
