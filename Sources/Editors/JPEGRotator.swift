import CTurboJPEG
import Providers
import ThumbnailKit

/// Turns a JPEG without decoding it: libjpeg-turbo moves the DCT blocks (what `jpegtran` does),
/// so not one pixel changes value, and EXIF, XMP and ICC segments are copied as they are.
///
/// A picture whose width or height is not a whole number of blocks (8 or 16 pixels, by its
/// chroma subsampling) has partial blocks at the right and bottom edges, which cannot be moved
/// losslessly to the left or top. Such a turn drops them (at most 15 pixels on one side) and says
/// so; the rest stays lossless. The EXIF orientation is left as it is and the stored pixels are
/// turned so that the picture as shown turns as asked.
enum JPEGRotator {
    static func rotate(_ turn: PictureTurn, input: String, output: String) throws(ThumbnailError) -> FileEditResult {
        let file = try JPEGFile(reading: input)
        let jpeg = file.bytes
        let stored = PictureTurn.stored(for: turn, orientation: file.orientation)
        let before = try header(jpeg)
        if stored == .identity {
            try EditOutput.write(jpeg, to: output)
            return FileEditResult(width: before.width, height: before.height)
        }
        var notes: [String] = []
        var result = transform(jpeg, operation: operation(for: stored), perfect: true)
        if result == nil {
            result = transform(jpeg, operation: operation(for: stored), perfect: false)
            guard result != nil else { throw ThumbnailError(.corrupt, "cannot turn the JPEG: \(String(cString: CTurboJPEG_error()))") }
        }
        guard let turned = result else { throw ThumbnailError(.corrupt, "cannot turn the JPEG") }
        let after = try header(turned)
        let expected = stored.swapsSides ? (before.height, before.width) : (before.width, before.height)
        if (after.width, after.height) != expected {
            let columns = expected.0 - after.width, rows = expected.1 - after.height
            let cut = [columns > 0 ? "\(columns) px of width" : nil, rows > 0 ? "\(rows) px of height" : nil].compactMap { $0 }.joined(separator: " and ")
            notes.append("dropped \(cut) at the edge: partial \(before.blockWidth)×\(before.blockHeight) blocks cannot be turned without re-encoding; the rest is lossless")
        }
        try EditOutput.write(turned, to: output)
        // The size as shown: the stored size, turned by the EXIF orientation left in place.
        let shownSwapped = PictureTurn.exifOrientation(file.orientation).swapsSides
        return FileEditResult(notes: notes, width: shownSwapped ? after.height : after.width, height: shownSwapped ? after.width : after.height)
    }

    private static func operation(for turn: PictureTurn) -> Int32 {
        switch turn {
        case .mirror: Int32(TJXOP_HFLIP.rawValue)
        case .upsideDown: Int32(TJXOP_VFLIP.rawValue)
        case .transpose: Int32(TJXOP_TRANSPOSE.rawValue)
        case .transverse: Int32(TJXOP_TRANSVERSE.rawValue)
        case .quarter: Int32(TJXOP_ROT90.rawValue)
        case PictureTurn(quarterTurns: 2, flip: false): Int32(TJXOP_ROT180.rawValue)
        case PictureTurn(quarterTurns: 3, flip: false): Int32(TJXOP_ROT270.rawValue)
        default: Int32(TJXOP_NONE.rawValue)
        }
    }

    /// The transformed JPEG, or nil when libjpeg-turbo refused (a perfect turn that is not possible).
    private static func transform(_ jpeg: [UInt8], operation: Int32, perfect: Bool) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = jpeg.withUnsafeBufferPointer {
            CTurboJPEG_transform($0.baseAddress, UInt($0.count), operation, perfect ? 1 : 0, perfect ? 0 : 1, &out, &size)
        }
        defer { if let out { tjFree(out) } }
        guard status == 0, let out, size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    private static func header(_ jpeg: [UInt8]) throws(ThumbnailError) -> (width: Int, height: Int, blockWidth: Int, blockHeight: Int) {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0
        let status = jpeg.withUnsafeBufferPointer { CTurboJPEG_header($0.baseAddress, UInt($0.count), &width, &height, &subsampling) }
        guard status == 0, width > 0, height > 0 else { throw ThumbnailError(.corrupt, "not a JPEG libjpeg-turbo can read: \(String(cString: CTurboJPEG_error()))") }
        return (Int(width), Int(height), Int(CTurboJPEG_mcu_width(subsampling)), Int(CTurboJPEG_mcu_height(subsampling)))
    }
}
