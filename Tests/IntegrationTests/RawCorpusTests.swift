import Foundation
import Testing
import ThumbnailKit

/// Camera raw files of the shared corpus that libraw alone does not picture (issue 23 point 11):
/// read-only from ../shared/corpus, skipped where the corpus is absent.
@Suite(.serialized) struct RawCorpusTests {
    private func thumbnail(_ relative: String) throws -> (line: [String: Any], image: PixelImage)? {
        let file = PreviewCorpusTests.corpus.appendingPathComponent(relative).path
        guard FileManager.default.fileExists(atPath: file) else { return nil }  // no corpus here
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--json", "--no-cache", "-s", "256", "-o", out.path, file])
        let line = try #require(TestEnvironment.jsonLines(result.stdout).first, "\(relative): \(result.stderr)")
        let output = try #require(line["output"] as? String, "\(relative): \(line)")
        let image = try #require(FileManager.default.contents(atPath: output).flatMap { PNGDecoder.decode([UInt8]($0)) })
        return (line, image)
    }

    /// Mean and spread of luma, and the mean distance between the channels (0 for grey).
    private func statistics(_ image: PixelImage) -> (mean: Double, deviation: Double, colour: Double) {
        var sum = 0.0, squares = 0.0, colour = 0.0
        let count = image.width * image.height
        for index in 0..<count {
            let r = Double(image.pixels[index * 4]), g = Double(image.pixels[index * 4 + 1]), b = Double(image.pixels[index * 4 + 2])
            let luma = 0.299 * r + 0.587 * g + 0.114 * b
            sum += luma
            squares += luma * luma
            colour += max(r, g, b) - min(r, g, b)
        }
        let mean = sum / Double(count)
        return (mean, (squares / Double(count) - mean * mean).squareRoot(), colour / Double(count))
    }

    @Test func aCanonR6CR3LibrawCannotOpenShowsItsPRVWPreview() throws {
        guard let (line, image) = try thumbnail("raw/exiv2__Canon-R6-pruned.CR3") else { return }
        #expect(line["representation"] as? String == "thumbnail")
        #expect(line["source"] as? String == "cr3")
        // The PRVW JPEG is 1620×1080: 256×171 in a 256 box.
        #expect(image.width == 256 && image.height == 171, "\(image.width)x\(image.height)")
        #expect((line["facts"] as? [String: String])?["camera"] == "Canon EOS R6", "\(line)")
        let stats = statistics(image)
        #expect(stats.deviation > 20 && stats.colour > 20, "a photo, not a flat or grey picture: \(stats)")
    }

    @Test func aDNGOfSensorDataOnlyIsDevelopedAtHalfSize() throws {
        guard let (line, image) = try thumbnail("raw/tinydng__colorchart.dng") else { return }
        #expect(line["representation"] as? String == "thumbnail")
        #expect(line["source"] as? String == "libraw")
        // The corpus says it displays as 1734×1156.
        #expect(image.width == 256 && abs(image.height - 171) <= 1, "\(image.width)x\(image.height)")
        #expect((line["facts"] as? [String: String])?["dimensions"] == "1734×1156", "the sensor's size, not the half-size picture's: \(line)")
        let stats = statistics(image)
        // A colour chart: colourful and not black (the mosaic shown as grey would have no colour).
        #expect(stats.mean > 40 && stats.deviation > 20 && stats.colour > 25, "\(stats)")
    }
}
