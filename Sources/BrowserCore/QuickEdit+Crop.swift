import ThumbnailKit

/// Quick Look's crop (`e` then `c` on a picture): a `RectangleEditor` over the picture as the
/// edit shows it; saved as a crop of the file, before any turn.
extension QuickEdit {
    /// The suffixes a crop can only write again with loss.
    static let lossyCropSuffixes: Set<String> = ["heic", "heif", "avif"]

    /// The crop's rectangle in the picture as the file shows it (before the edit's turn), or nil
    /// when there is no crop or it keeps the whole picture.
    public var croppedRect: PixelRect? {
        guard let crop, !crop.isWhole else { return nil }
        return shownTurn().unturn(crop.rect, turnedSize: crop.size)
    }

    /// Starts the crop on a picture of `size` (as the file shows it), turned as the edit turns it.
    mutating func startCrop(pictureSize size: PixelSize, name: String) {
        let turned = Self.normalized(quarterTurns) % 2 == 1 ? PixelSize(width: size.height, height: size.width) : size
        crop = RectangleEditor(size: turned)
        cropLosesQuality = Self.lossyCropSuffixes.contains(name.split(separator: ".").last.map { $0.lowercased() } ?? "")
    }

    mutating func editCrop(_ action: RectangleEditor.Action, now: Int64) {
        crop?.apply(action, now: now)
    }
}

extension QuickEdit.Turn {
    /// Where `rect` of the picture turned so (`turnedSize` its size then) lies in the picture
    /// before the turn: the turn undone, quarter by quarter, then the mirror.
    public func unturn(_ rect: PixelRect, turnedSize: PixelSize) -> PixelRect {
        var rect = rect, size = turnedSize
        for _ in 0..<(((quarterTurns % 4) + 4) % 4) {
            // A quarter turn counterclockwise: the top edge goes to the left.
            rect = PixelRect(x: rect.y, y: size.width - rect.x - rect.width, width: rect.height, height: rect.width)
            size = PixelSize(width: size.height, height: size.width)
        }
        if mirrored { rect.x = size.width - rect.x - rect.width }
        return rect
    }
}
