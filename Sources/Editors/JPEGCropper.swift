import CTurboJPEG
import Providers
import ThumbnailKit

/// Crops a JPEG without decoding it: libjpeg-turbo keeps the DCT blocks inside the rectangle
/// (what `jpegtran -crop` does), so not one pixel changes value; EXIF, XMP and ICC segments are
/// copied and the EXIF orientation stays.
///
/// Blocks cannot be cut, so the rectangle's left and top edges in the stored pixels move left and
/// up to the block grid (8 or 16 pixels, by the chroma subsampling) and its right and bottom
/// edges stay (on screen, through the EXIF orientation, other edges may be the ones that move):
/// the result says which rectangle was kept. The rectangle is given in the picture as shown (EXIF
/// orientation applied) and carried over to the stored pixels.
enum JPEGCropper {
    static func crop(_ asked: PixelRect, input: String, output: String) throws(ThumbnailError) -> FileEditResult {
        let file = try JPEGFile(reading: input)
        let jpeg = file.bytes
        let orientation = PictureTurn.exifOrientation(file.orientation)
        let stored = try header(jpeg)
        let (shownWidth, shownHeight) = orientation.swapsSides ? (stored.height, stored.width) : (stored.width, stored.height)
        try PictureCropper.check(asked, width: shownWidth, height: shownHeight)
        // Into the stored pixels, snapped there (the grid is the stored picture's).
        let wanted = orientation.inverse.map(asked, width: shownWidth, height: shownHeight)
        let left = wanted.x - wanted.x % stored.blockWidth, top = wanted.y - wanted.y % stored.blockHeight
        let snapped = PixelRect(x: left, y: top, width: wanted.x + wanted.width - left, height: wanted.y + wanted.height - top)
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = jpeg.withUnsafeBufferPointer {
            CTurboJPEG_crop($0.baseAddress, UInt($0.count), Int32(snapped.x), Int32(snapped.y), Int32(snapped.width), Int32(snapped.height), &out, &size)
        }
        defer { if let out { tjFree(out) } }
        guard status == 0, let out, size > 0 else { throw ThumbnailError(.corrupt, "cannot crop the JPEG: \(String(cString: CTurboJPEG_error()))") }
        let cropped = Array(UnsafeBufferPointer(start: out, count: Int(size)))
        let after = try header(cropped)
        guard after.width == snapped.width, after.height == snapped.height else {
            throw ThumbnailError(.corrupt, "libjpeg-turbo cropped \(after.width)×\(after.height), not \(snapped.width)×\(snapped.height)")
        }
        try EditOutput.write(cropped, to: output)
        let used = orientation.map(snapped, width: stored.width, height: stored.height)
        var notes = ["cropped in the DCT domain, not encoded again"]
        if used != asked {
            notes.append("kept \(used.geometry), not \(asked.geometry): a JPEG is cut on its \(stored.blockWidth)×\(stored.blockHeight) block grid without encoding it again, so the rectangle grew out to the grid")
        }
        return FileEditResult(notes: notes, width: used.width, height: used.height, rect: used)
    }

    private static func header(_ jpeg: [UInt8]) throws(ThumbnailError) -> (width: Int, height: Int, blockWidth: Int, blockHeight: Int) {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0
        let status = jpeg.withUnsafeBufferPointer { CTurboJPEG_header($0.baseAddress, UInt($0.count), &width, &height, &subsampling) }
        guard status == 0, width > 0, height > 0 else { throw ThumbnailError(.corrupt, "not a JPEG libjpeg-turbo can read: \(String(cString: CTurboJPEG_error()))") }
        return (Int(width), Int(height), Int(CTurboJPEG_mcu_width(subsampling)), Int(CTurboJPEG_mcu_height(subsampling)))
    }
}
