import Testing
import ThumbnailKit
@testable import Providers

@Suite struct WaveformAndFrameQualityTests {
    @Test func resamplingKeepsPeaks() {
        #expect(WaveformRenderer.resample([0, 1, 0, 0, 0.5, 0], to: 3) == [1, 0, 0.5])
        #expect(WaveformRenderer.resample([0.25], to: 4) == [0.25, 0.25, 0.25, 0.25])
    }

    @Test func waveformHasTheRequestedSizeAndShowsLoudness() {
        let image = WaveformRenderer.render(peaks: [0, 1], size: PixelSize(width: 2, height: 20))
        #expect(image.size == PixelSize(width: 2, height: 20))
        #expect(image.pixel(x: 1, y: 2) == WaveformRenderer.foreground)
        #expect(image.pixel(x: 0, y: 2) == WaveformRenderer.background)
    }

    @Test func blackAndFlatFramesAreNotInteresting() {
        #expect(!FrameQuality.isInteresting(PixelImage(width: 8, height: 8, filledWith: .black)))
        #expect(!FrameQuality.isInteresting(PixelImage(width: 8, height: 8, filledWith: RGBA(90, 120, 200))))
        var pixels: [UInt8] = []
        for index in 0..<64 { pixels += index % 2 == 0 ? [20, 20, 20, 255] : [220, 200, 180, 255] }
        #expect(FrameQuality.isInteresting(PixelImage(width: 8, height: 8, pixels: pixels)))
    }

    @Test func displayMatrixRotationTurnsAsPlayersDo() {
        #expect(VideoProvider.clockwiseQuarterTurns(fromDisplayRotation: -90) == 1)
        #expect(VideoProvider.clockwiseQuarterTurns(fromDisplayRotation: 90) == 3)
        #expect(VideoProvider.clockwiseQuarterTurns(fromDisplayRotation: 180) == 2)
        #expect(VideoProvider.clockwiseQuarterTurns(fromDisplayRotation: 0) == 0)
    }
}
