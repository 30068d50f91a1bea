import Foundation
import Testing

/// The shared thumbnail cache and batch runs, through the real binary.
@Suite(.serialized) struct CacheAndBatchTests {
    private func python(_ script: String, _ arguments: [String]) -> TestEnvironment.Result {
        TestEnvironment.run("/usr/bin/python3", ["-c", script] + arguments)
    }

    @Test func ourThumbnailsAreReadableByAnIndependentPNGReaderWithTheSpecKeys() throws {
        let cacheHome = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        let file = TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-s", "128", "-o", cacheHome.path, file],
                                         environment: ["XDG_CACHE_HOME": cacheHome.path])
        #expect(result.status == 0, "\(result.stderr)")
        let folder = cacheHome.appendingPathComponent("thumbnails/normal")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 1)
        let check = python("""
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1]); im.load()
            print(im.mode, im.size[0], im.size[1], im.info.get('interlace', 0))
            for key in ('Thumb::URI', 'Thumb::MTime', 'Thumb::Size', 'Thumb::Mimetype', 'Software'):
                print(key, im.text.get(key))
            """, [folder.appendingPathComponent(names[0]).path])
        #expect(check.status == 0, "\(check.stderr)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "RGB 128 96 0", "an opaque picture is stored without an alpha channel")
        let modified = try #require((try FileManager.default.attributesOfItem(atPath: file))[.modificationDate] as? Date)
        #expect(lines.contains("Thumb::URI file://\(file)"))
        #expect(lines.contains("Thumb::MTime \(Int(modified.timeIntervalSince1970))"))
        #expect(lines.contains("Thumb::Mimetype image/jpeg"))
    }

    @Test func thumbnailsWrittenByAnotherProgramAreUsedWithoutDecoding() throws {
        let cacheHome = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        let file = TestEnvironment.fixtures.appendingPathComponent("clip.mp4").path
        let modified = try #require((try FileManager.default.attributesOfItem(atPath: file))[.modificationDate] as? Date)
        let folder = cacheHome.appendingPathComponent("thumbnails/large")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A GNOME-style entry: RGB (no alpha), written by PIL, keyed by the spec's MD5 of the URI.
        let made = python("""
            import sys, hashlib
            from PIL import Image, PngImagePlugin
            uri = 'file://' + sys.argv[1]
            info = PngImagePlugin.PngInfo()
            info.add_text('Thumb::URI', uri); info.add_text('Thumb::MTime', sys.argv[2])
            Image.new('RGB', (200, 100), (0, 200, 0)).save(sys.argv[3] + '/' + hashlib.md5(uri.encode()).hexdigest() + '.png', pnginfo=info)
            """, [file, String(Int(modified.timeIntervalSince1970)), folder.path])
        #expect(made.status == 0, "\(made.stderr)")
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        // The worker is unavailable: only the cache can answer.
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--json", "-t", "thumbnail", "-o", out.path, file],
                                         environment: ["XDG_CACHE_HOME": cacheHome.path, "QLBROWSE_THUMBNAILER": "/nonexistent"])
        let line = try #require(TestEnvironment.jsonLines(result.stdout).first)
        #expect(line["source"] as? String == "cache", "\(line)")
        #expect(line["width"] as? Int == 200 && line["height"] as? Int == 100)
    }

    @Test func aBatchSkipsWhatIsCachedAndRemembersFailures() throws {
        let cacheHome = TestEnvironment.temporaryFolder()
        let library = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cacheHome); try? FileManager.default.removeItem(at: library) }
        for name in ["landscape.jpg", "image.webp", "doc.pdf", "clip.mp4", "broken.pdf", "hello.swift"] {
            try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent(name), to: library.appendingPathComponent(name))
        }
        let env = ["XDG_CACHE_HOME": cacheHome.path]
        let first = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-r", library.path], environment: env)
        #expect(first.status == 1, "one file is broken: \(first.stderr)")
        #expect(first.stderr.contains("generated 5, already cached 0, failed 1, skipped 0"), "\(first.stderr)")
        #expect(first.stderr.contains("broken.pdf: cannot read the PDF"), "\(first.stderr)")
        let second = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-r", "--json", library.path], environment: env)
        #expect(second.stderr.contains("generated 0, already cached 5, failed 1, skipped 0"), "\(second.stderr)")
        #expect(second.stderr.contains("remembered"))
        let outcomes = TestEnvironment.jsonLines(second.stdout).compactMap { $0["outcome"] as? String }.sorted()
        #expect(outcomes == ["cached", "cached", "cached", "cached", "cached", "failed"])
        let forced = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-r", "--force", library.path], environment: env)
        #expect(forced.stderr.contains("generated 5, already cached 0, failed 1"), "\(forced.stderr)")
        #expect(!first.stderr.contains("\r"), "no progress bar when standard error is not a terminal")
    }

    @Test func shardsTogetherCoverEveryFileOnce() throws {
        let cacheHome = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        var seen: [String] = []
        for index in 1...3 {
            let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-r", "--json", "-t", "icon", "--shard", "\(index)/3", TestEnvironment.fixtures.path],
                                             environment: ["XDG_CACHE_HOME": cacheHome.path])
            seen += TestEnvironment.jsonLines(result.stdout).compactMap { $0["file"] as? String }
        }
        let all = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-r", "--json", "--force", TestEnvironment.fixtures.path],
                                      environment: ["XDG_CACHE_HOME": cacheHome.path])
        let every = TestEnvironment.jsonLines(all.stdout).compactMap { $0["file"] as? String }
        #expect(seen.sorted() == every.sorted())
        #expect(Set(seen).count == seen.count)
    }

    @Test func interruptingABatchStopsWithinASecondAndLeavesNothingPartial() throws {
        let cacheHome = TestEnvironment.temporaryFolder()
        let library = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cacheHome); try? FileManager.default.removeItem(at: library) }
        let huge = TestEnvironment.largeFixtures.appendingPathComponent("huge-20000.png")
        for index in 0..<6 { try FileManager.default.createSymbolicLink(at: library.appendingPathComponent("huge\(index).png"), withDestinationURL: huge) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestEnvironment.qlbrowse)
        process.arguments = ["thumbnail", "-r", library.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": cacheHome.path]) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        let start = Date()
        process.interrupt()
        process.waitUntilExit()
        let elapsed = Date().timeIntervalSince(start)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(elapsed < 1.0, "took \(elapsed) s to stop")
        #expect(process.terminationStatus == 130)
        #expect(stderr.contains("interrupted"), "\(stderr)")
        #expect(stderr.contains("not done"), "\(stderr)")
        let leftovers = FileManager.default.enumerator(atPath: cacheHome.path)?.compactMap { $0 as? String }.filter { $0.contains(".tmp") } ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func cacheCleanRemovesEntriesWhoseOriginalIsGone() throws {
        let cacheHome = TestEnvironment.temporaryFolder()
        let library = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cacheHome); try? FileManager.default.removeItem(at: library) }
        for name in ["landscape.jpg", "image.webp"] {
            try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent(name), to: library.appendingPathComponent(name))
        }
        let env = ["XDG_CACHE_HOME": cacheHome.path]
        TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-r", library.path], environment: env)
        try FileManager.default.removeItem(at: library.appendingPathComponent("image.webp"))
        let stats = TestEnvironment.run(TestEnvironment.qlbrowse, ["cache", "stats"], environment: env)
        #expect(stats.stdout.contains("large           2 files"), "\(stats.stdout)")
        let clean = TestEnvironment.run(TestEnvironment.qlbrowse, ["cache", "clean"], environment: env)
        #expect(clean.stdout.contains("removed 1 entries"), "\(clean.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cacheHome.appendingPathComponent("thumbnails/large").path).count == 1)
    }
}
