import Foundation
import Testing

/// `qlbrowse edit` on real files made with ffmpeg and ImageMagick, checked with independent
/// tools (ImageMagick, exiftool, pdfinfo, pdftotext, ffprobe): lossless, undoable, nothing lost.
@Suite(.serialized) struct EditCommandTests {
    private struct Folder {
        let url: URL
        let dataHome: URL
        init() throws {
            url = TestEnvironment.temporaryFolder("qlbrowse-edit")
            dataHome = url.appendingPathComponent(".data")
            try FileManager.default.createDirectory(at: dataHome, withIntermediateDirectories: true)
        }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        func copy(_ fixture: String, as name: String? = nil) throws -> String {
            let target = path(name ?? fixture)
            try FileManager.default.copyItem(atPath: TestEnvironment.fixtures.appendingPathComponent(fixture).path, toPath: target)
            return target
        }
        /// What is in the folder besides the trash: no temporary may be left.
        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0 != ".data" }.sorted() }
    }

    @discardableResult
    private func edit(_ folder: Folder, _ arguments: [String]) -> TestEnvironment.Result {
        TestEnvironment.run(TestEnvironment.qlbrowse, ["edit"] + arguments, environment: ["XDG_DATA_HOME": folder.dataHome.path])
    }

    private func tool(_ arguments: [String]) -> String {
        TestEnvironment.run("/usr/bin/env", arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aJPEGTurnedFourTimesIsTheSamePixelsWithItsEXIFAndOnceIsAReferenceTurn() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let photo = try folder.copy("portrait-exif6.jpg", as: "photo.jpg")
        let original = try folder.copy("portrait-exif6.jpg", as: "original.jpg")
        let once = edit(folder, ["rotate", "--right", "--copy", photo])
        #expect(once.status == 0, "\(once.stderr)")
        let turned = folder.path("photo (edited).jpg")
        // Shown upright (EXIF applied), the turned copy is the original shown upright, turned right.
        _ = tool(["convert", original, "-auto-orient", "-rotate", "90", folder.path("reference.png")])
        _ = tool(["convert", turned, "-auto-orient", folder.path("turned.png")])
        let psnr = TestEnvironment.run("/usr/bin/compare", ["-metric", "PSNR", folder.path("turned.png"), folder.path("reference.png"), "null:"]).stderr
        #expect((Double(psnr.split(separator: " ").first ?? "") ?? (psnr.hasPrefix("inf") ? .infinity : 0)) >= 50, "PSNR \(psnr)")
        for _ in 0..<4 { #expect(edit(folder, ["rotate", "--right", photo]).status == 0) }
        let difference = TestEnvironment.run("/usr/bin/compare", ["-metric", "AE", photo, original, "null:"]).stderr
        #expect(difference.hasPrefix("0"), "four right turns changed \(difference) pixels")
        #expect(tool(["exiftool", "-s3", "-Orientation#", photo]) == "6", "the EXIF is kept")
        #expect(FileManager.default.fileExists(atPath: folder.dataHome.appendingPathComponent("Trash/files/photo.jpg").path), "the original went to the Trash")
        #expect(!folder.names.contains { $0.contains("qlbrowse-edit") }, "\(folder.names)")
    }

    @Test func aPDFPageTurnsByItsRotationWithItsTextUnchanged() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let pdf = try folder.copy("pages12.pdf", as: "doc.pdf")
        let textBefore = tool(["pdftotext", pdf, "-"])
        let result = edit(folder, ["rotate-pages", "--pages", "2", "--right", "--json", pdf])
        #expect(result.status == 0 && result.stdout.contains("\"pages\":1"), "\(result.stdout) \(result.stderr)")
        let info = tool(["pdfinfo", "-f", "2", "-l", "3", pdf]).split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(info.contains("Page 2 rot: 90") && info.contains("Page 3 rot: 0"), "\(info)")
        #expect(tool(["pdftotext", pdf, "-"]) == textBefore)
        let encrypted = try folder.copy("encrypted.pdf")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: encrypted))
        let refused = edit(folder, ["rotate-pages", "--right", encrypted])
        #expect(refused.status != 0 && refused.stderr.contains("encrypted and needs a password"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: encrypted)) == bytes && !folder.names.contains { $0.contains("qlbrowse-edit") })
    }

    @Test func aMinuteOfVideoTrimmedToTenSecondsKeepsItsCodecAndBitRate() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let video = folder.path("minute.mp4")
        // A keyframe every 2 s, as cameras write them; three chapters.
        let chapters = folder.path("chapters.txt")
        try Data("""
            ;FFMETADATA1
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=15000
            title=Intro
            [CHAPTER]
            TIMEBASE=1/1000
            START=15000
            END=40000
            title=Middle
            [CHAPTER]
            TIMEBASE=1/1000
            START=40000
            END=60000
            title=End

            """.utf8).write(to: URL(fileURLWithPath: chapters))
        _ = tool(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=duration=60:size=320x240:rate=25", "-i", chapters, "-map_metadata", "1",
                  "-map_chapters", "1", "-c:v", "libx264", "-g", "50", "-b:v", "300k", video])
        try FileManager.default.removeItem(atPath: chapters)
        let copy = edit(folder, ["trim", "--start", "10.5", "--end", "0:20", "--copy", video])
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(copy.stdout.contains("starts at 0:10.0, the nearest keyframe"), "\(copy.stdout)")
        let trimmed = folder.path("minute (edited).mp4")
        let probe = { (file: String, entry: String) in self.tool(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", entry, "-of", "csv=p=0", file]) }
        let duration = Double(probe(trimmed, "format=duration")) ?? 0
        #expect(abs(duration - 10) <= 2, "lasts \(duration) s")
        #expect(probe(trimmed, "stream=codec_name") == "h264")
        let rates = [video, trimmed].map { Double(probe($0, "stream=bit_rate")) ?? 0 }
        #expect(rates[1] > rates[0] * 0.7 && rates[1] < rates[0] * 1.3, "bit rates \(rates)")
        #expect(TestEnvironment.run("/usr/bin/ffmpeg", ["-v", "error", "-i", trimmed, "-f", "null", "-"]).stderr.isEmpty, "it plays")
        let kept = tool(["ffprobe", "-v", "error", "-show_entries", "chapter=start_time,end_time:chapter_tags=title", "-of", "csv=p=0", trimmed])
        let keptChapters = kept.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(keptChapters.map { $0.last ?? "" } == ["Intro", "Middle"], "the chapters in the kept part: \(kept)")
        #expect(keptChapters.count == 2 && abs((Double(keptChapters[1][0]) ?? 0) - 4.5) < 1 && abs((Double(keptChapters[1][1]) ?? 0) - 9.5) < 1,
                "Middle from 15 s is 4.5 s into the part kept from 10.5 s: \(kept)")
        let turned = edit(folder, ["rotate-video", "--right", trimmed])
        #expect(turned.status == 0, "\(turned.stderr)")
        #expect(tool(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0", trimmed]).contains("90"))
    }

    @Test(arguments: ["mp3", "m4a", "flac"])
    func aTrimmedSongKeepsItsTagsAndCover(_ suffix: String) throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let song = folder.path("song.\(suffix)")
        _ = tool(["ffmpeg", "-v", "error", "-i", TestEnvironment.fixtures.appendingPathComponent("song-with-cover.\(suffix)").path,
                  "-map", "0", "-c", "copy", "-metadata", "title=Edit me", "-metadata", "artist=Fixture", song])
        let before = try FileManager.default.attributesOfItem(atPath: song)[.modificationDate] as? Date
        let result = edit(folder, ["trim", "--start", "0.5", "--end", "1.5", "--keep-time", song])
        #expect(result.status == 0, "\(result.stderr)")
        let tags = tool(["ffprobe", "-v", "error", "-show_entries", "format_tags=title,artist:format=duration", "-of", "compact", song]).lowercased()
        #expect(tags.contains("title=edit me") && tags.contains("artist=fixture"), "\(tags)")
        let duration = Double(tool(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", song])) ?? 0
        #expect(abs(duration - 1) < 0.3, "\(suffix) lasts \(duration) s")
        #expect(tool(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "stream=codec_type", "-of", "csv=p=0", song]).contains("video"), "the cover is kept")
        #expect(try FileManager.default.attributesOfItem(atPath: song)[.modificationDate] as? Date == before, "--keep-time")
    }

    @Test func badInputAndAFullDiskLeaveTheOriginalAndNoTemporary() throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let broken = try folder.copy("garbage.png")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: broken))
        let result = edit(folder, ["rotate", "--left", broken])
        #expect(result.status != 0 && result.stderr.contains("garbage.png"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: broken)) == bytes)
        #expect(edit(folder, ["trim", "--end", "5", try folder.copy("notreally.pdf", as: "clip.mp4")]).status != 0)
        #expect(!folder.names.contains { $0.contains("qlbrowse-edit") }, "\(folder.names)")
        // A full disk: a 1 MB tmpfs holding a 700 KB video has no room for the trimmed copy.
        let small = folder.path("small")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        guard TestEnvironment.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", small]).status == 0 else { return }  // not root
        defer { TestEnvironment.run("/bin/umount", [small]) }
        let video = small + "/full.mp4"
        _ = tool(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=duration=8:size=320x240:rate=25", "-c:v", "libx264", "-b:v", "700k", "-fs", "700000", video])
        let full = try Data(contentsOf: URL(fileURLWithPath: video))
        let refused = edit(folder, ["trim", "--start", "0", "--end", "7", "--copy", video])
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: video)) == full)
        #expect(try FileManager.default.contentsOfDirectory(atPath: small) == ["full.mp4"], "no temporary left on the full disk")
    }
}
