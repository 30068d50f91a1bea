import Foundation
import Testing
@testable import ThumbnailKit

/// The PNG reader against ImageMagick's: every colour type the Thumbnail Managing Standard allows,
/// 8 and 16 bits, a palette with transparency, and each of PNG's five row filters, read to the
/// same RGBA (16-bit samples to within one step: ImageMagick rounds where the reader keeps the
/// high byte).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/local/bin/convert") || FileManager.default.isExecutableFile(atPath: "/usr/bin/convert")))
struct PNGDecoderTests {
    static let convert = FileManager.default.isExecutableFile(atPath: "/usr/local/bin/convert") ? "/usr/local/bin/convert" : "/usr/bin/convert"

    /// Runs ImageMagick; its standard output.
    private func magick(_ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.convert)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "convert \(arguments.joined(separator: " "))")
        return [UInt8](bytes)
    }

    @Test(arguments: [
        ("rgba8", ["-define", "png:color-type=6", "-depth", "8"]),
        ("rgba16", ["-define", "png:color-type=6", "-depth", "16"]),
        ("rgb8", ["-alpha", "off", "-define", "png:color-type=2", "-depth", "8"]),
        ("rgb16", ["-alpha", "off", "-define", "png:color-type=2", "-depth", "16"]),
        ("gray8", ["-colorspace", "gray", "-alpha", "off", "-define", "png:color-type=0", "-depth", "8"]),
        ("gray16", ["-colorspace", "gray", "-alpha", "off", "-define", "png:color-type=0", "-depth", "16"]),
        ("grayalpha8", ["-colorspace", "gray", "-define", "png:color-type=4", "-depth", "8"]),
        ("palette", ["-colors", "60", "-define", "png:color-type=3"]),
    ])
    func everyColourTypeAndFilterReadsAsImageMagickReadsIt(name: String, options: [String]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qlbrowse-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 67×41: rows of odd length, colours that change everywhere, alpha across the picture.
        let source = folder.appendingPathComponent("source.png").path
        _ = try magick(["-seed", "7", "-size", "67x41", "plasma:fractal", "-alpha", "set", "-channel", "A", "-fx", "0.2+0.8*i/w", "+channel", source])
        for filter in 0...5 {
            let path = folder.appendingPathComponent("\(name)-\(filter).png").path
            _ = try magick([source] + options + ["-define", "png:compression-filter=\(filter)", path])
            let file = try #require(FileManager.default.contents(atPath: path), "\(path)")
            let decoded = try #require(PNGDecoder.decode([UInt8](file)), "\(name), filter \(filter)")
            let expected = try magick([path, "-depth", "8", "rgba:-"])
            #expect(decoded.size == PixelSize(width: 67, height: 41))
            #expect(decoded.pixels.count == expected.count)
            let tolerance = name.hasSuffix("16") ? 1 : 0
            let off = zip(decoded.pixels, expected).filter { abs(Int($0) - Int($1)) > tolerance }.count
            #expect(off == 0, "\(name), filter \(filter): \(off) of \(expected.count) samples differ")
        }
    }
}
