import ThumbnailKit

/// Judges whether a video frame is worth showing: not near-black, not one flat colour
/// (fades, title cards, encoder start-up frames).
public enum FrameQuality {
    /// Mean and standard deviation of luma, 0…255.
    public static func lumaStatistics(_ image: PixelImage) -> (mean: Double, deviation: Double) {
        let count = image.width * image.height
        guard count > 0 else { return (0, 0) }
        var sum = 0.0, squares = 0.0
        let step = max(1, count / 4096)
        var samples = 0.0
        for index in stride(from: 0, to: count, by: step) {
            let offset = index * 4
            let luma = 0.299 * Double(image.pixels[offset]) + 0.587 * Double(image.pixels[offset + 1]) + 0.114 * Double(image.pixels[offset + 2])
            sum += luma
            squares += luma * luma
            samples += 1
        }
        let mean = sum / samples
        return (mean, (max(0, squares / samples - mean * mean)).squareRoot())
    }

    /// The mean luma at or below which a frame is near-black.
    static let nearBlack = 16.0

    /// Near-black: what a video's intro fades in from.
    public static func isDark(_ image: PixelImage) -> Bool {
        lumaStatistics(image).mean <= nearBlack
    }

    public static func isInteresting(_ image: PixelImage) -> Bool {
        let stats = lumaStatistics(image)
        return stats.mean > nearBlack && stats.mean < 245 && stats.deviation > 12
    }

    /// Higher is better; used to pick the best of several unremarkable frames.
    public static func score(_ image: PixelImage) -> Double {
        let stats = lumaStatistics(image)
        let exposure = 1 - abs(stats.mean - 128) / 128
        return stats.deviation * (0.5 + exposure)
    }
}
