/// The arithmetic of fitting a picture into a thumbnail box, shared by every provider so that all
/// of them round the same way.
public enum ThumbnailGeometry {
    /// The largest size with `source`'s aspect ratio that fits `box`, never larger than `source`
    /// unless `upscale` is set, and never smaller than 1×1.
    public static func fit(_ source: PixelSize, in box: PixelSize, upscale: Bool = false) -> PixelSize {
        guard source.width > 0, source.height > 0, box.width > 0, box.height > 0 else {
            return PixelSize(width: max(1, min(box.width, 1)), height: max(1, min(box.height, 1)))
        }
        var scale = min(Double(box.width) / Double(source.width), Double(box.height) / Double(source.height))
        if !upscale { scale = min(scale, 1) }
        let width = max(1, min(box.width, Int((Double(source.width) * scale).rounded())))
        let height = max(1, min(box.height, Int((Double(source.height) * scale).rounded())))
        return PixelSize(width: width, height: height)
    }

    /// The box in pixels for a size in points and a scale factor.
    public static func pixelBox(size: Double, scale: Double) -> PixelSize {
        let side = max(1, Int((size * scale).rounded()))
        return PixelSize(width: side, height: side)
    }

    /// `box` as a picture stored before its EXIF `orientation` (1…8) sees it: turned a quarter for
    /// 5…8, whose stored width is the shown height.
    public static func storedBox(_ box: PixelSize, orientation: Int) -> PixelSize {
        orientation >= 5 ? PixelSize(width: box.height, height: box.width) : box
    }
}
