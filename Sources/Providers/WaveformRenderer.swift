import ThumbnailKit

/// Draws a waveform: one vertical bar per column, mirrored around the middle, on a dark card.
public enum WaveformRenderer {
    public static let background = RGBA(0x22, 0x26, 0x2E)
    public static let foreground = RGBA(0xE6, 0x7E, 0x22)

    public static func render(peaks: [Float], size: PixelSize) -> PixelImage {
        var image = PixelImage(width: size.width, height: size.height, filledWith: background)
        let columns = resample(peaks, to: size.width)
        let middle = Double(size.height) / 2
        let loudest = max(columns.max() ?? 1, 0.05)
        for x in 0..<size.width {
            let level = Double(columns[x] / loudest)
            let half = max(0.5, level * (middle - 1))
            let top = max(0, Int((middle - half).rounded(.down))), bottom = min(size.height - 1, Int((middle + half).rounded(.up)))
            guard top <= bottom else { continue }
            for y in top...bottom {
                let offset = (y * size.width + x) * 4
                image.pixels[offset] = foreground.red
                image.pixels[offset + 1] = foreground.green
                image.pixels[offset + 2] = foreground.blue
            }
        }
        return image
    }

    /// `values` stretched or squeezed to `count` entries, keeping maxima.
    public static func resample(_ values: [Float], to count: Int) -> [Float] {
        guard count > 0 else { return [] }
        guard !values.isEmpty else { return [Float](repeating: 0, count: count) }
        return (0..<count).map { index in
            let start = index * values.count / count
            let end = max(start + 1, (index + 1) * values.count / count)
            return values[start..<min(end, values.count)].max() ?? 0
        }
    }
}
