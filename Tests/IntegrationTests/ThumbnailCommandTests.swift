import Foundation
import Testing
import ThumbnailKit

/// `qlbrowse thumbnail` run as a user runs it, on fixtures made by real tools.
@Suite(.serialized) struct ThumbnailCommandTests {
    @Test func everyGoodFixtureGetsAThumbnailThatFitsTheBoxAndKeepsItsShape() throws {
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let good = TestEnvironment.fixtureTable.filter { $0.expect == "ok" }
        #expect(good.count >= 35, "the fixture script should make a file of every supported type")
        let files = good.map { TestEnvironment.fixtures.appendingPathComponent($0.file).path }
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--json", "-s", "128", "-o", out.path] + files)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = TestEnvironment.jsonLines(result.stdout)
        for fixture in good {
            let path = TestEnvironment.fixtures.appendingPathComponent(fixture.file).path
            let line = try #require(lines.first { $0["file"] as? String == path }, "no line for \(fixture.file)")
            #expect(line["error"] == nil, "\(fixture.file): \(line["error"] ?? "")")
            #expect(line["representation"] as? String == "thumbnail", "\(fixture.file)")
            let output = try #require(line["output"] as? String)
            let (width, height) = try #require(TestEnvironment.pngSize(output), "\(fixture.file) wrote no PNG")
            #expect(width <= 128 && height <= 128, "\(fixture.file) is \(width)x\(height)")
            #expect(line["width"] as? Int == width && line["height"] as? Int == height)
            if let (displayWidth, displayHeight) = fixture.displaySize, fixture.kind != "audio" {
                let expected = Double(displayWidth) / Double(displayHeight)
                let actual = Double(width) / Double(height)
                let tolerance = max(0.04 * expected, expected * 1.0 / Double(min(width, height)))
                #expect(abs(actual - expected) <= tolerance, "\(fixture.file): \(width)x\(height), displays as \(displayWidth)x\(displayHeight)")
            }
        }
    }

    @Test func brokenFilesGetAClearErrorAndTheOthersAreStillDone() throws {
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let names = ["empty.jpg", "encrypted.pdf", "broken.pdf", "zipbomb.cbz", "landscape.jpg", "missing-file.jpg"]
        let files = names.map { TestEnvironment.fixtures.appendingPathComponent($0).path }
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-o", out.path] + files)
        #expect(result.status == 1, "the exit status must say something failed")
        let errors = result.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 5, "\(errors)")
        #expect(errors.contains { $0.contains("empty.jpg") && $0.contains("empty") })
        #expect(errors.contains { $0.contains("encrypted.pdf") && $0.contains("encrypted") })
        #expect(errors.contains { $0.contains("zipbomb.cbz") && $0.contains("more than qlbrowse reads") })
        #expect(errors.contains { $0.contains("missing-file.jpg") && $0.contains("No such file") })
        #expect(errors.allSatisfy { $0.hasPrefix("qlbrowse: ") })
        #expect(result.stdout.contains("landscape.jpg: image/jpeg thumbnail libjpeg 256x192"))
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(written == ["landscape.jpg.png"], "only the good file is written, and no temporary file is left: \(written)")
    }

    @Test func audioWithNeitherTagsNorArtGetsAWaveformWhateverItsContainer() throws {
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        // untagged.m4a (MP4, isom brand) and tone.wma (ASF) are sniffed as video containers.
        let names = ["untagged.m4a", "tone.wma", "tone.wav", "tone.ogg"]
        let files = names.map { TestEnvironment.fixtures.appendingPathComponent($0).path }
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--json", "-s", "128", "-o", out.path] + files)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = TestEnvironment.jsonLines(result.stdout)
        for (name, file) in zip(names, files) {
            let line = try #require(lines.first { $0["file"] as? String == file }, "no line for \(name)")
            #expect(line["error"] == nil, "\(name): \(line["error"] ?? "")")
            #expect(line["source"] as? String == "waveform", "\(name): \(line)")
            let output = try #require(line["output"] as? String, "\(name) wrote nothing")
            let (width, height) = try #require(TestEnvironment.pngSize(output), "\(name) wrote no PNG")
            #expect(width == 128 && height > 8 && height < 128, "\(name): a waveform is a wide strip, not \(width)x\(height)")
        }
    }

    @Test func progressiveOutputComesIconFirstThenTheEmbeddedPreviewThenTheThumbnail() throws {
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let file = TestEnvironment.fixtures.appendingPathComponent("with-exif-thumb.jpg").path
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--progressive", "--json", "-o", out.path, file])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = TestEnvironment.jsonLines(result.stdout)
        #expect(lines.compactMap { $0["representation"] as? String } == ["icon", "lowQuality", "thumbnail"])
        #expect(lines.compactMap { $0["source"] as? String } == ["icon", "exif", "libjpeg"])
        let times = lines.compactMap { $0["ms"] as? Int }
        #expect(times == times.sorted())
        // The thumbnail's own line says where it was written: one line per representation, no extra line.
        #expect(lines.count == 3)
        #expect(lines.last?["output"] as? String == out.appendingPathComponent("with-exif-thumb.jpg.png").path)
    }

    @Test func lowQualityAloneIsTheEmbeddedPictureAndFailsClearlyWithoutOne() throws {
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let withThumb = TestEnvironment.fixtures.appendingPathComponent("with-exif-thumb.jpg").path
        let without = TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-t", "low", "--json", "-o", out.path, withThumb, without])
        let lines = TestEnvironment.jsonLines(result.stdout)
        let good = try #require(lines.first { $0["file"] as? String == withThumb })
        #expect(good["representation"] as? String == "lowQuality")
        #expect(good["width"] as? Int == 160 && good["height"] as? Int == 120)
        let bad = try #require(lines.first { $0["file"] as? String == without })
        #expect((bad["error"] as? String)?.contains("no low-quality preview") == true)
        #expect(result.status == 1)
    }

    @Test func orientationIsAppliedToTheThumbnailAndTheEmbeddedPreview() throws {
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let file = TestEnvironment.fixtures.appendingPathComponent("portrait-exif6.jpg").path
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--json", "-s", "64", "-o", out.path, file])
        let line = try #require(TestEnvironment.jsonLines(result.stdout).first)
        #expect(line["width"] as? Int == 48 && line["height"] as? Int == 64)
    }

    /// Issue 23 point 8: a WebM with one keyframe (black) and no stream duration, and one with no
    /// duration at all, got pure-black thumbnails.
    @Test func videosWithABlackLeadInArePicturedPastIt() throws {
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        for name in ["black-lead.webm", "black-lead-streamed.webm", "clip.webm"] {
            let file = TestEnvironment.fixtures.appendingPathComponent(name).path
            let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--json", "--no-cache", "-s", "128", "-o", out.path, file])
            let line = try #require(TestEnvironment.jsonLines(result.stdout).first, "\(name): \(result.stderr)")
            let output = try #require(line["output"] as? String, "\(name): \(line)")
            let image = try #require(FileManager.default.contents(atPath: output).flatMap { PNGDecoder.decode([UInt8]($0)) })
            var sum = 0.0
            for index in stride(from: 0, to: image.width * image.height * 4, by: 4) {
                sum += 0.299 * Double(image.pixels[index]) + 0.587 * Double(image.pixels[index + 1]) + 0.114 * Double(image.pixels[index + 2])
            }
            let mean = sum / Double(image.width * image.height)
            // testsrc's bars and gradient average about 128; black is 0.
            #expect(mean > 60, "\(name): mean luminance \(mean)")
        }
    }

    @Test func iconsNeedNoDecoderAndScaleMultipliesTheBox() throws {
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let file = TestEnvironment.fixtures.appendingPathComponent("clip.mp4").path
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-t", "icon", "-s", "32", "--scale", "2", "--json", "-o", out.path, file],
                                         environment: ["QLBROWSE_THUMBNAILER": "/nonexistent/worker"])
        let line = try #require(TestEnvironment.jsonLines(result.stdout).first)
        #expect(line["representation"] as? String == "icon")
        #expect(line["width"] as? Int == 64 && line["height"] as? Int == 64)
        #expect(result.status == 0)
    }

    @Test func jpegOutputIsAJPEG() throws {
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let file = TestEnvironment.fixtures.appendingPathComponent("image.webp").path
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--format", "jpeg", "-o", out.path, file])
        #expect(result.status == 0)
        let data = try #require(FileManager.default.contents(atPath: out.appendingPathComponent("image.webp.jpg").path))
        #expect(data.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
    }

    @Test func escapeSequencesInFileNamesAreShownEscaped() throws {
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let name = "\u{1B}]0;pwned\u{07}\u{1B}[2J.txt"
        let file = TestEnvironment.fixtures.appendingPathComponent(name).path
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-o", out.path, file, file + ".missing"])
        #expect(!result.stdout.contains("\u{1B}") && !result.stderr.contains("\u{1B}") && !result.stdout.contains("\u{07}"))
        #expect(result.stdout.contains("\\e]0;pwned\\a\\e[2J.txt"))
        #expect(result.stderr.contains("\\e]0;pwned\\a\\e[2J.txt.missing"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name + ".png").path))
    }

    @Test func sameNamesFromTwoFoldersDoNotOverwriteEachOther() throws {
        let out = TestEnvironment.temporaryFolder()
        let other = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: other) }
        let first = TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path
        let second = other.appendingPathComponent("landscape.jpg").path
        try FileManager.default.copyItem(atPath: TestEnvironment.fixtures.appendingPathComponent("image.webp").path, toPath: second)
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--jobs", "1", "-o", out.path, first, second])
        #expect(result.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["landscape.jpg (2).png", "landscape.jpg.png"])
    }

    @Test func badOptionsAreRefusedWithAReason() {
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-s", "0", "x.jpg"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--size must be between 1 and 4096"))
        let missingFolder = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-o", "/nonexistent/folder", "x.jpg"])
        #expect(missingFolder.status != 0)
        #expect(missingFolder.stderr.contains("does not exist"))
    }
}

@Suite struct FileFactsOutputTests {
    @Test func jsonCarriesWhatTheDecodersLearned() throws {
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let files = ["clip.mp4", "doc.pdf", "rotated.mp4", "song-with-cover.mp3"].map { TestEnvironment.fixtures.appendingPathComponent($0).path }
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--json", "-o", out.path] + files)
        let lines = TestEnvironment.jsonLines(result.stdout)
        func facts(_ name: String) -> [String: String] {
            (lines.first { ($0["file"] as? String)?.hasSuffix("/" + name) == true }?["facts"] as? [String: String]) ?? [:]
        }
        #expect(facts("clip.mp4") == ["dimensions": "320×240", "duration": "0:05", "codec": "h264"])
        #expect(facts("rotated.mp4")["dimensions"] == "240×320")
        #expect(facts("doc.pdf")["pages"] == "2")
        #expect(facts("song-with-cover.mp3")["duration"] == "0:02")
    }
}
