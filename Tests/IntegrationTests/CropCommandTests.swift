import Foundation
import Testing

/// `qlbrowse edit crop` checked against independent tools: a camera JPEG of the shared corpus
/// against `jpegtran -crop` (both decoded by djpeg, compared byte for byte), a PNG against
/// ImageMagick's `-crop`, an EXIF-turned JPEG against ImageMagick on the picture as shown.
@Suite(.serialized) struct CropCommandTests {
    private struct Folder {
        let url = TestEnvironment.temporaryFolder("qlbrowse-crop")
        var dataHome: URL { url.appendingPathComponent(".data") }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        func copy(corpus relative: String, as name: String) throws -> String? {
            let source = PreviewCorpusTests.corpus.appendingPathComponent(relative).path
            guard FileManager.default.fileExists(atPath: source) else { return nil }  // no corpus here
            try FileManager.default.copyItem(atPath: source, toPath: path(name))
            return path(name)
        }
    }

    private func crop(_ folder: Folder, _ arguments: [String]) -> TestEnvironment.Result {
        TestEnvironment.run(TestEnvironment.qlbrowse, ["edit", "crop"] + arguments, environment: ["XDG_DATA_HOME": folder.dataHome.path])
    }

    /// The file's decoded pixels as djpeg writes them (PPM).
    private func decoded(_ path: String) throws -> Data {
        let ppm = path + ".ppm"
        let result = TestEnvironment.run("/bin/sh", ["-c", "djpeg -pnm \"$1\" > \"$1.ppm\"", "sh", path])
        #expect(result.status == 0, "\(result.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: ppm))
    }

    private func size(_ path: String) -> String {
        TestEnvironment.run("/usr/bin/identify", ["-format", "%wx%h", path]).stdout
    }

    @Test func aCameraJPEGIsCroppedAsJpegtranCropsItSnappedToItsBlocks() throws {
        let folder = Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        guard let photo = try folder.copy(corpus: "images/exifr__canon-dslr.jpg", as: "canon.jpg") else { return }
        let original = try Data(contentsOf: URL(fileURLWithPath: photo))
        let result = crop(folder, ["--copy", "--json", "--rect", "1000x700+101+53", photo])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(TestEnvironment.jsonLines(result.stdout).first)
        let output = try #require(line["output"] as? String)
        let kept = try #require((line["result"] as? [String: Any])?["rect"] as? [String: Int])
        // 4:2:2 blocks are 16×8: the left edge moves from 101 to 96, the top from 53 to 48.
        #expect(kept == ["x": 96, "y": 48, "width": 1005, "height": 705], "\(line)")
        #expect((line["result"] as? [String: Any])?["notes"].map { "\($0)" }?.contains("block grid") == true, "the snap is said: \(line)")
        let reference = folder.path("jpegtran.jpg")
        let jpegtran = TestEnvironment.run("/bin/sh", ["-c", "jpegtran -copy all -crop 1000x700+101+53 \"$1\" > \"$2\"", "sh", photo, reference])
        #expect(jpegtran.status == 0, "\(jpegtran.stderr)")
        #expect(size(output) == "1005x705" && size(reference) == "1005x705", "\(size(output)) \(size(reference))")
        let ours = try decoded(output), theirs = try decoded(reference)
        #expect(ours.count > 1005 * 705 * 3 && ours == theirs, "the crop decodes to jpegtran's pixels exactly")
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == original, "--copy leaves the original alone")
    }

    @Test func anEXIFTurnedJPEGIsCroppedInThePictureAsShown() throws {
        let folder = Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        guard let photo = try folder.copy(corpus: "images/exifr__f6t.jpg", as: "turned.jpg") else { return }
        // Stored 80×48 with orientation 6: shown 48×80.
        let result = crop(folder, ["--copy", "--rect", "24x40+16+32", photo])
        #expect(result.status == 0, "\(result.stderr)")
        let output = folder.path("turned (edited).jpg")
        _ = TestEnvironment.run("/usr/bin/env", ["convert", output, "-auto-orient", folder.path("ours.png")])
        _ = TestEnvironment.run("/usr/bin/env", ["convert", photo, "-auto-orient", "-crop", "24x40+16+32", "+repage", folder.path("reference.png")])
        let difference = TestEnvironment.run("/usr/bin/compare", ["-metric", "AE", folder.path("ours.png"), folder.path("reference.png"), "null:"]).stderr
        #expect(difference.hasPrefix("0"), "\(difference) pixels differ")
        #expect(TestEnvironment.run("/usr/bin/identify", ["-format", "%[EXIF:Orientation]", output]).stdout == "6", "the orientation stays")

        // Off the grid: the stored picture's left and top edges snap, which on screen (turned
        // right) are the top and the right; the rectangle kept holds the one asked, and is
        // exactly that part of the picture as shown.
        let snapped = crop(folder, ["--copy", "--json", "--rect", "20x30+5+7", photo])
        let line = try #require(TestEnvironment.jsonLines(snapped.stdout).first, "\(snapped.stderr)")
        let kept = try #require((line["result"] as? [String: Any])?["rect"] as? [String: Int])
        #expect(kept == ["x": 5, "y": 0, "width": 27, "height": 37], "\(line)")
        let second = try #require(line["output"] as? String)
        _ = TestEnvironment.run("/usr/bin/env", ["convert", second, "-auto-orient", folder.path("snapped.png")])
        _ = TestEnvironment.run("/usr/bin/env", ["convert", photo, "-auto-orient", "-crop", "27x37+5+0", "+repage", folder.path("kept.png")])
        let apart = TestEnvironment.run("/usr/bin/compare", ["-metric", "AE", folder.path("snapped.png"), folder.path("kept.png"), "null:"]).stderr
        #expect(apart.hasPrefix("0"), "\(apart) pixels differ")
    }

    @Test func aPNGCropIsExactAndARectangleOutsideThePictureTouchesNothing() throws {
        let folder = Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        guard let picture = try folder.copy(corpus: "images/libvips__sample.png", as: "sample.png") else { return }
        let original = try Data(contentsOf: URL(fileURLWithPath: picture))
        let result = crop(folder, ["--rect", "101x77+33+51", picture])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("the original is in the Trash"), "\(result.stdout)")
        let trashed = folder.dataHome.appendingPathComponent("Trash/files/sample.png").path
        _ = TestEnvironment.run("/usr/bin/env", ["convert", trashed, "-crop", "101x77+33+51", "+repage", folder.path("reference.png")])
        let difference = TestEnvironment.run("/usr/bin/compare", ["-metric", "AE", picture, folder.path("reference.png"), "null:"]).stderr
        #expect(size(picture) == "101x77" && difference.hasPrefix("0"), "\(size(picture)), \(difference) pixels differ")

        try FileManager.default.removeItem(atPath: picture)
        try original.write(to: URL(fileURLWithPath: picture))
        let outside = crop(folder, ["--rect", "200x100+200+400", picture])
        #expect(outside.status != 0 && outside.stderr.contains("not inside the picture, which is 290×442"), "\(outside.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: picture)) == original, "the file is untouched")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0 != ".data" && $0 != "reference.png" }
        #expect(names == ["sample.png"], "nothing else is left: \(names)")
    }

    @Test func aHEICIsCroppedOnlyWhenALossyEncodingIsAllowed() throws {
        let folder = Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        guard let picture = try folder.copy(corpus: "images/exiv2__Stonehenge.heic", as: "stones.heic") else { return }
        let refused = crop(folder, ["--copy", "--rect", "100x50+10+10", picture])
        #expect(refused.status != 0 && refused.stderr.contains("--allow-lossy"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("stones (edited).heic")))
        let allowed = crop(folder, ["--copy", "--allow-lossy", "--rect", "100x50+10+10", picture])
        #expect(allowed.status == 0 && allowed.stdout.contains("not lossless"), "\(allowed.stdout) \(allowed.stderr)")
        #expect(size(folder.path("stones (edited).heic")) == "100x50")
    }
}
