import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import SystemKit
import ThumbnailKit
@testable import Providers

/// PNG, TIFF and WebP thumbnails read through libpng, libtiff and libwebp rather than libvips: the
/// same picture as libvips makes (size, orientation, colours and alpha, to within resampling), and
/// what they leave to libvips is left to it. Fixtures come from ImageMagick and exiftool.
@Suite(.enabled(if: ["/usr/bin/convert", "/usr/bin/exiftool"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }))
struct DirectDecoderTests {
    /// Runs a tool, expecting success.
    private func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " "))")
    }

    /// A 301×203 picture whose colours change everywhere, alpha from 0.2 to 1 across it.
    private func source(in folder: TemporaryFolder) throws -> String {
        let path = folder.path + "/source.png"
        try run("/usr/bin/convert", ["-seed", "3", "-size", "301x203", "plasma:fractal", "-alpha", "set", "-channel", "A",
                                     "-fx", "0.2+0.8*i/w", "+channel", path])
        return path
    }

    private func thumbnail(_ path: String, type: String, box: Int = 64) throws -> ProviderImage {
        let job = ProviderJob(path: path, contentType: ContentType(type), box: PixelSize(width: box, height: box),
                              wantsLowQuality: false, wantsThumbnail: true, wantsFacts: false)
        var made: [ProviderImage] = []
        try ImageProvider().makeImages(for: job) { made.append($0) }
        return try #require(made.last)
    }

    /// Mean difference of two same-sized pictures' premultiplied colours, and of their alphas.
    private func difference(_ a: PixelImage, _ b: PixelImage) -> (colour: Double, alpha: Double) {
        var colour = 0, alpha = 0
        for offset in stride(from: 0, to: a.pixels.count, by: 4) {
            let alphaA = Int(a.pixels[offset + 3]), alphaB = Int(b.pixels[offset + 3])
            for channel in 0..<3 {
                colour += abs(Int(a.pixels[offset + channel]) * alphaA - Int(b.pixels[offset + channel]) * alphaB) / 255
            }
            alpha += abs(alphaA - alphaB)
        }
        let pixels = Double(a.pixels.count / 4)
        return (Double(colour) / pixels / 3, Double(alpha) / pixels)
    }

    @Test(arguments: [
        ("rgba.png", "image/png", ["-define", "png:color-type=6"], "libpng"),
        ("rgb16.png", "image/png", ["-alpha", "off", "-depth", "16"], "libpng"),
        ("grey.png", "image/png", ["-colorspace", "gray", "-alpha", "off", "-define", "png:color-type=0"], "libpng"),
        ("palette.png", "image/png", ["-colors", "60", "-define", "png:color-type=3"], "libpng"),
        ("interlaced.png", "image/png", ["-interlace", "PNG"], "libpng"),
        ("lzw.tif", "image/tiff", ["-alpha", "off", "-compress", "lzw"], "libtiff"),
        ("alpha.tif", "image/tiff", ["-compress", "zip"], "libtiff"),
        ("tiled.tif", "image/tiff", ["-alpha", "off", "-define", "tiff:tile-geometry=64x64"], "libtiff"),
        ("grey16.tif", "image/tiff", ["-colorspace", "gray", "-alpha", "off", "-depth", "16"], "libtiff"),
        ("greyalpha.tif", "image/tiff", ["-colorspace", "gray", "-depth", "8"], "libtiff"),
        ("unspecified.tif", "image/tiff", ["-define", "tiff:alpha=unspecified"], "libtiff"),
        ("lossy.webp", "image/webp", ["-alpha", "off", "-quality", "90"], "libwebp"),
        ("alpha.webp", "image/webp", ["-define", "webp:lossless=true"], "libwebp"),
    ])
    func eachLayoutLooksAsLibvipsMakesIt(name: String, type: String, options: [String], decoder: String) throws {
        let folder = try TemporaryFolder()
        let upright = folder.path + "/" + name
        try run("/usr/bin/convert", [try source(in: folder)] + options + [upright])
        // libvips' picture of the upright file, turned: libvips turns these files too, but loses a
        // WebP's alpha once exiftool has added an EXIF chunk (it trusts the VP8X header's flags).
        let box = PixelSize(width: 64, height: 64)
        let uprightReference = try VipsDecoder.thumbnail(path: upright, box: box, cancellation: CancellationFlag())
        for orientation in [1, 6] {
            let path = folder.path + "/\(orientation)-" + name
            try FileManager.default.copyItem(atPath: upright, toPath: path)
            if orientation != 1 { try run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-Orientation#=\(orientation)", path]) }
            let made = try thumbnail(path, type: type)
            #expect(made.source == decoder, "\(name): made by \(made.source)")
            let reference = uprightReference.applyingOrientation(orientation)
            #expect(made.image.size == reference.size, "\(name), orientation \(orientation)")
            #expect(made.image.size == (orientation >= 5 ? PixelSize(width: 43, height: 64) : PixelSize(width: 64, height: 43)))
            guard made.image.size == reference.size else { continue }
            let off = difference(made.image, reference)
            #expect(off.colour < 4 && off.alpha < 4, "\(name), orientation \(orientation): off by \(off.colour) in colour, \(off.alpha) in alpha")
        }
    }

    @Test(arguments: [
        ("pages.tif", "image/tiff", "multi"),
        ("cmyk.tif", "image/tiff", "cmyk"),
        ("greyalpha16.tif", "image/tiff", "grey16"),
        ("animated.webp", "image/webp", "animated"),
        ("cut.png", "image/png", "cut"),
    ])
    func whatTheyDoNotReadIsLeftToLibvips(name: String, type: String, kind: String) throws {
        let folder = try TemporaryFolder()
        let picture = try source(in: folder), path = folder.path + "/" + name
        switch kind {
        case "multi", "animated": try run("/usr/bin/convert", [picture, "(", picture, "-negate", ")", "-alpha", "off", "-delay", "10", path])
        case "cmyk": try run("/usr/bin/convert", [picture, "-alpha", "off", "-colorspace", "cmyk", path])
        // libtiff's RGBA interface drops 16-bit grey's alpha.
        case "grey16": try run("/usr/bin/convert", [picture, "-colorspace", "gray", "-depth", "16", path])
        default:
            try run("/usr/bin/convert", [picture, "-alpha", "off", path])
            let whole = try #require(FileManager.default.contents(atPath: path))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        }
        let box = PixelSize(width: 64, height: 64), cancellation = CancellationFlag()
        let direct = switch type {
        case "image/png": try PNGFileDecoder.thumbnail(path: path, box: box, cancellation: cancellation)
        case "image/tiff": try TIFFFileDecoder.thumbnail(path: path, box: box, cancellation: cancellation)
        default: try WebPFileDecoder.thumbnail(path: path, box: box, cancellation: cancellation)
        }
        #expect(direct?.size == nil, "\(name) was read without libvips")
        // libvips has its say: a picture, or its own error.
        do {
            #expect(try thumbnail(path, type: type).source == "vips")
        } catch {
            #expect(kind == "cut", "\(name): \(error)")
        }
    }

    /// A name that is not UTF-8 (`\xFF`) beside its look-alike, whose name is the bytes of the
    /// character that stands for `\xFF` in a String (U+EFFF): each decoder opens the exact file.
    @Test(arguments: [("png", "image/png", "libpng"), ("tif", "image/tiff", "libtiff"), ("webp", "image/webp", "libwebp")])
    func aNameThatIsNotUTF8IsReadAsItselfNotItsLookAlike(suffix: String, type: String, decoder: String) throws {
        let folder = try TemporaryFolder()
        let named: [(bytes: [UInt8], colour: String)] = [([0x70, 0xFF], "red"), ([0x70, 0xEE, 0xBF, 0xBF], "blue")]
        for (bytes, colour) in named {
            let made = folder.path + "/\(colour).\(suffix)"
            try run("/usr/bin/convert", ["-size", "40x20", "xc:\(colour)", made])
            let target = Array(folder.path.utf8) + [UInt8(ascii: "/")] + bytes + Array(".\(suffix)".utf8) + [0]
            let renamed = target.withUnsafeBufferPointer { target in
                made.withCString { Glibc.rename($0, UnsafeRawPointer(target.baseAddress!).assumingMemoryBound(to: CChar.self)) }
            }
            try #require(renamed == 0)
        }
        for (bytes, colour) in named {
            let path = String(fileSystemBytes: Array(folder.path.utf8) + [UInt8(ascii: "/")] + bytes + Array(".\(suffix)".utf8))
            let made = try thumbnail(path, type: type)
            #expect(made.source == decoder)
            let middle = made.image.pixel(x: made.image.width / 2, y: made.image.height / 2)
            #expect(colour == "red" ? middle.red > 200 && middle.blue < 50 : middle.blue > 200 && middle.red < 50,
                    "\(suffix): the \(colour) file's thumbnail is \(middle)")
        }
    }

    @Test func aCancelledDecodeStops() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/big.png"
        try run("/usr/bin/convert", ["-size", "2000x1500", "gradient:red-blue", path])
        let cancellation = CancellationFlag()
        cancellation.cancel()
        #expect(throws: ThumbnailError.self) {
            _ = try PNGFileDecoder.thumbnail(path: path, box: PixelSize(width: 64, height: 64), cancellation: cancellation)
        }
    }

    @Test func aWebPsOrientationIsReadFromItsEXIFChunk() {
        // RIFF, WEBP, then a 4-byte "VP8 " chunk (odd length padded) and an EXIF chunk with "Exif\0\0" before its TIFF.
        func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xff), UInt8((v >> 8) & 0xff), UInt8((v >> 16) & 0xff), UInt8(v >> 24)] }
        let tiff: [UInt8] = [0x49, 0x49, 42, 0] + le32(8) + [1, 0] + [0x12, 0x01, 3, 0] + le32(1) + [8, 0, 0, 0] + le32(0)
        let exif = Array("Exif\0\0".utf8) + tiff
        let body = Array("WEBP".utf8) + Array("VP8 ".utf8) + le32(3) + [1, 2, 3, 0] + Array("EXIF".utf8) + le32(exif.count) + exif
        #expect(WebPFileDecoder.exifOrientation(Array("RIFF".utf8) + le32(body.count) + body) == 8)
        #expect(WebPFileDecoder.exifOrientation(Array("RIFF".utf8) + le32(body.count) + body.dropLast(4)) == nil)
    }
}
