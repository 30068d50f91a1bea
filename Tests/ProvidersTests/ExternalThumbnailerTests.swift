import Foundation
import SystemKit
import Testing
import ThumbnailKit
@testable import Providers

@Suite struct ExternalThumbnailerTests {
    // MARK: - Parsing and loading

    @Test func parsesAThumbnailerFile() throws {
        let text = """
            # A comment
            [Desktop Entry]
            Exec=not-this-one

            [Thumbnailer Entry]
            TryExec=sh
            Exec=sh -c "echo\\s%i" %o
            MimeType=image/png; Image/X-Foo ;;
            X-QLBrowse-MinimumDimension=128
            Exec=ignored-duplicate
            """
        let entry = try #require(ThumbnailerFile.parse(text, path: "/usr/share/thumbnailers/shot.thumbnailer"))
        #expect(entry.name == "shot")
        #expect(entry.tryExec == "sh")
        #expect(entry.exec == "sh -c \"echo %i\" %o")
        #expect(entry.mimeTypes == ["image/png", "image/x-foo"])
        #expect(entry.minimumDimension == 128)
        #expect(ThumbnailerFile.parse("[Thumbnailer Entry]\nMimeType=image/png;\n", path: "x.thumbnailer") == nil)
        #expect(ThumbnailerFile.parse("[Thumbnailer Entry]\nExec=x %o\n", path: "x.thumbnailer") == nil)
    }

    @Test func missingTryExecIsSkippedAndTheUserFolderWins() throws {
        let folder = try TemporaryFolder()
        try folder.write("home/thumbnailers/shared.thumbnailer", "[Thumbnailer Entry]\nExec=sh %o\nMimeType=image/x-user;\n")
        try folder.write("system/thumbnailers/shared.thumbnailer", "[Thumbnailer Entry]\nExec=sh %o\nMimeType=image/x-system;\n")
        try folder.write("system/thumbnailers/missing.thumbnailer",
                         "[Thumbnailer Entry]\nTryExec=qlbrowse-no-such-program-\(UUID().uuidString)\nExec=x %o\nMimeType=image/x-missing;\n")
        try folder.write("system/thumbnailers/absolute.thumbnailer", "[Thumbnailer Entry]\nTryExec=/nonexistent/tool\nExec=x %o\nMimeType=image/x-missing;\n")
        try folder.write("system/thumbnailers/present.thumbnailer", "[Thumbnailer Entry]\nTryExec=sh\nExec=sh %o\nMimeType=image/x-present;\n")
        try folder.write("system/thumbnailers/not-a-thumbnailer.txt", "[Thumbnailer Entry]\nExec=sh %o\nMimeType=image/x-txt;\n")
        let external = ExternalThumbnailers(directories: Self.directories(folder), searchPath: "/usr/bin:/bin")
        #expect(external.entries.map(\.name) == ["shared", "present"])
        #expect(Set(external.skipped.map(\.name)) == ["missing", "absolute"])
        #expect(external.thumbnailers(for: ContentType("image/x-user")).map(\.name) == ["shared"])
        #expect(external.thumbnailers(for: ContentType("image/x-system")).isEmpty)
        #expect(external.thumbnailers(for: ContentType("image/x-missing")).isEmpty)
        #expect(external.thumbnailers(for: ContentType("image/x-txt")).isEmpty)
    }

    @Test func matchesTheExactTypeOnlyAfterAliases() throws {
        let folder = try TemporaryFolder()
        try folder.write("home/mime/subclasses", "image/apng image/png\napplication/x-qlbrowse-test application/zip\n")
        try folder.write("home/mime/aliases", "application/x-qlbt-old application/x-qlbrowse-test\n")
        try folder.write("home/thumbnailers/png.thumbnailer", "[Thumbnailer Entry]\nExec=sh %o\nMimeType=image/png;application/x-qlbt-old;\n")
        let external = ExternalThumbnailers(directories: Self.directories(folder), searchPath: "/usr/bin:/bin")
        #expect(external.thumbnailers(for: ContentType("image/png")).count == 1)
        #expect(external.thumbnailers(for: ContentType("image/apng")).isEmpty)
        #expect(external.thumbnailers(for: ContentType("application/zip")).isEmpty)
        #expect(external.thumbnailers(for: ContentType("application/x-qlbrowse-test")).count == 1)
        #expect(external.thumbnailers(for: ContentType("application/x-qlbt-old")).count == 1)
    }

    // MARK: - Exec lines

    @Test func splitsExecWithDesktopEntryQuoting() {
        #expect(ThumbnailerCommand.split("tool  -s %s\t%u %o") == ["tool", "-s", "%s", "%u", "%o"])
        #expect(ThumbnailerCommand.split(#"tool "two words" "q\"uote" "\$HOME" "back\\slash" "a\x""#) == ["tool", "two words", "q\"uote", "$HOME", "back\\slash", "a\\x"])
        #expect(ThumbnailerCommand.split(#"tool 'single quoted' x\ y "" end"#) == ["tool", "single quoted", "x y", "", "end"])
        #expect(ThumbnailerCommand.split(#"tool "unterminated"#) == nil)
        #expect(ThumbnailerCommand.split("tool 'unterminated") == nil)
    }

    @Test func expandsFieldCodes() {
        let values = ThumbnailerCommand.Values(input: "/home/me/My File #1.png", output: "/tmp/out dir/t.png", size: 256, mimeType: "image/png")
        let arguments = ThumbnailerCommand.arguments("tool -s %s -i %i -u %u -o %o -m %m --percent=100%% %f %k --size=%sx%s", values)
        #expect(arguments == ["tool", "-s", "256", "-i", "/home/me/My File #1.png", "-u", "file:///home/me/My%20File%20%231.png",
                              "-o", "/tmp/out dir/t.png", "-m", "image/png", "--percent=100%", "--size=256x256"])
        // A file name is never split or interpreted, whatever it holds.
        let hostile = ThumbnailerCommand.Values(input: "/tmp/$(touch pwned); rm -rf ~ \"x\"", output: "/o.png", size: 1, mimeType: "a/b")
        #expect(ThumbnailerCommand.arguments("tool %i", hostile) == ["tool", "/tmp/$(touch pwned); rm -rf ~ \"x\""])
        #expect(ThumbnailerCommand.arguments("\"\" %i", values) == nil)
        #expect(ThumbnailerCommand.arguments("", values) == nil)
    }

    // MARK: - Running commands

    @Test func runsAFakeThumbnailer() throws {
        let folder = try TemporaryFolder()
        let provider = try Self.fakeProvider(folder, script: """
            #!/bin/sh
            cp "$(dirname "$0")/fixed.png" "$1"
            """)
        let input = try folder.write("input.qlbt", "QLBT")
        var images: [ProviderImage] = []
        try provider.makeImages(for: Self.job(input, box: 64)) { images.append($0) }
        let image = try #require(images.first)
        #expect(images.count == 1)
        #expect(image.type == .thumbnail)
        #expect(image.source == "fake")
        #expect(image.image.width <= 64 && image.image.height <= 64 && image.image.width == 2 * image.image.height)
        #expect(image.image.pixel(x: 0, y: 0) == RGBA(200, 30, 40))
    }

    @Test func aCrashingThumbnailerIsACleanError() throws {
        let folder = try TemporaryFolder()
        let provider = try Self.fakeProvider(folder, script: "#!/bin/sh\nkill -SEGV $$\n")
        let input = try folder.write("input.qlbt", "QLBT")
        let error = Self.failure { try provider.makeImages(for: Self.job(input, box: 64)) { _ in } }
        #expect(error?.code == .corrupt)
        #expect(error?.reason.hasPrefix("fake failed: ") == true)
    }

    @Test func aFailingOrSilentThumbnailerIsAnError() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("input.qlbt", "QLBT")
        let failing = try Self.fakeProvider(folder, script: "#!/bin/sh\nexit 3\n")
        #expect(Self.failure { try failing.makeImages(for: Self.job(input, box: 64)) { _ in } } == ThumbnailError(.corrupt, "fake failed: exit 3"))
        let silent = try Self.fakeProvider(folder, script: "#!/bin/sh\nexit 0\n", name: "silent")
        #expect(Self.failure { try silent.makeImages(for: Self.job(input, box: 64)) { _ in } }?.code == .corrupt)
        let garbage = try Self.fakeProvider(folder, script: "#!/bin/sh\necho not a picture > \"$1\"\n", name: "garbage")
        #expect(Self.failure { try garbage.makeImages(for: Self.job(input, box: 64)) { _ in } }?.code == .corrupt)
    }

    @Test func aNeverEndingThumbnailerTimesOutAndIsKilled() throws {
        let folder = try TemporaryFolder()
        let marker = String(600_000 + Int.random(in: 0..<99_999))
        let provider = try Self.fakeProvider(folder, script: "#!/bin/sh\nexec sleep \(marker)\n", deadline: 1)
        let input = try folder.write("input.qlbt", "QLBT")
        let start = Date()
        let error = Self.failure { try provider.makeImages(for: Self.job(input, box: 64)) { _ in } }
        #expect(error?.code == .timedOut)
        #expect(Date().timeIntervalSince(start) < 2.5)
        #expect(Self.waitUntilGone(marker), "a `sleep \(marker)` process is left behind")
    }

    @Test func cancellationStopsTheCommand() throws {
        let folder = try TemporaryFolder()
        let marker = String(700_000 + Int.random(in: 0..<99_999))
        let provider = try Self.fakeProvider(folder, script: "#!/bin/sh\nsleep \(marker)\n")
        let input = try folder.write("input.qlbt", "QLBT")
        let job = Self.job(input, box: 64)
        let flag = job.cancellation
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { flag.cancel() }
        let start = Date()
        #expect(Self.failure { try provider.makeImages(for: job) { _ in } }?.code == .cancelled)
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(Self.waitUntilGone(marker), "a `sleep \(marker)` process is left behind")
    }

    @Test func belowTheMinimumDimensionTheIconStays() throws {
        let folder = try TemporaryFolder()
        let provider = try Self.fakeProvider(folder, script: "#!/bin/sh\ntouch \"$(dirname \"$0\")/ran\"\n", minimum: 128)
        let input = try folder.write("input.qlbt", "QLBT")
        let error = Self.failure { try provider.makeImages(for: Self.job(input, box: 64)) { _ in } }
        #expect(error == ThumbnailError(.noPreview, "below fake's minimum size"))
        #expect(!folder.exists("ran"))
    }

    @Test func theSandboxKeepsTheThumbnailerToItsOutputFolder() throws {
        let folder = try TemporaryFolder()
        let provider = try Self.fakeProvider(folder, script: """
            #!/bin/sh
            touch "$(dirname "$0")/escaped" 2>/dev/null
            cp "$(dirname "$0")/fixed.png" "$1"
            """)
        let input = try folder.write("input.qlbt", "QLBT")
        var images: [ProviderImage] = []
        try provider.makeImages(for: Self.job(input, box: 32)) { images.append($0) }
        #expect(images.count == 1)
        // With bubblewrap the thumbnailer's own folder is read-only; without it, it is an ordinary subprocess.
        #expect(folder.exists("bin/escaped") == !ThumbnailerSandbox.isBubblewrapUsable)
    }

    // MARK: - Routing and the catalog

    @Test func externalThumbnailersComeAfterBuiltInsUnlessPreferred() throws {
        let folder = try TemporaryFolder()
        try folder.write("home/thumbnailers/extra.thumbnailer", "[Thumbnailer Entry]\nExec=sh %o\nMimeType=image/png;application/x-qlbrowse-test;\n")
        let external = ExternalThumbnailers(directories: Self.directories(folder), searchPath: "/usr/bin:/bin")
        let png = ContentType("image/png"), qlbt = ContentType("application/x-qlbrowse-test")
        let plain = BuiltInProviders(external: external, preferExternal: [])
        #expect(plain.providers(for: png, path: "/nonexistent.png").map(\.name) == ["vips", "libav", "extra"])
        #expect(plain.providers(for: qlbt, path: "/nonexistent.qlbt").map(\.name) == ["extra"])
        #expect(plain.providers(for: ContentType("image/apng"), path: "/nonexistent.apng").map(\.name) == ["vips", "libav"])
        let preferred = BuiltInProviders(external: external, preferExternal: ["image/png"])
        #expect(preferred.providers(for: png, path: "/nonexistent.png").map(\.name) == ["extra", "vips", "libav"])
        let all = BuiltInProviders(external: external, preferExternal: ["all"])
        #expect(all.providers(for: png, path: "/nonexistent.png").map(\.name).first == "extra")
    }

    @Test func thumbnailerFilesAreReadOnlyWhenTheChainReachesThem() throws {
        let folder = try TemporaryFolder()
        try folder.write("home/thumbnailers/extra.thumbnailer", "[Thumbnailer Entry]\nExec=sh %o\nMimeType=image/png;application/x-qlbrowse-test;\n")
        let directories = Self.directories(folder)
        final class Reads { var count = 0 }
        let reads = Reads()
        let providers = BuiltInProviders(external: { reads.count += 1; return ExternalThumbnailers(directories: directories, searchPath: "/usr/bin:/bin") }(),
                                         preferExternal: [])
        let png = ContentType("image/png")
        // A new worker's first PNG: the built-in provider is tried without reading any .thumbnailer file.
        let chain = providers.providers(for: png, path: "/nonexistent.png")
        #expect(!chain.isEmpty)
        var iterator = chain.makeIterator()
        #expect(iterator.next()?.name == "vips")
        #expect(reads.count == 0)
        // Past the built-in ones (they failed), the files are read, once for all later requests.
        #expect(iterator.next()?.name == "libav")
        #expect(iterator.next()?.name == "extra")
        #expect(iterator.next() == nil)
        #expect(providers.providers(for: ContentType("application/x-qlbrowse-test"), path: "/x.qlbt").map(\.name) == ["extra"])
        #expect(reads.count == 1)
    }

    @Test func catalogListsBuiltInAndExternalTypes() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("home/thumbnailers/extra.thumbnailer", "[Thumbnailer Entry]\nExec=sh %o\nMimeType=application/x-qlbrowse-test;\n")
        let rows = ProviderCatalog.rows(external: ExternalThumbnailers(directories: Self.directories(folder), searchPath: "/usr/bin:/bin"))
        func row(_ type: String) -> (String, String)? { rows.first { $0.type == type }.map { ($0.provider, $0.origin) } }
        #expect(row("image/png")! == ("vips", "built-in"))
        #expect(row("image/x-adobe-dng")! == ("libraw", "built-in"))
        #expect(row("application/pdf")! == ("poppler", "built-in"))
        #expect(row("video/mp4")! == ("libav", "built-in"))
        #expect(row("audio/mpeg")! == ("cover+waveform", "built-in"))
        #expect(row("text/x-swift")! == ("text", "built-in"))
        #expect(row("application/epub+zip")! == ("container", "built-in"))
        #expect(row("application/x-tar") == nil)
        #expect(row("application/x-qlbrowse-test")! == ("extra", path))
    }

    @Test func snifferFindsAUserRegisteredType() throws {
        let folder = try TemporaryFolder()
        try folder.write("home/mime/globs2", "50:application/x-qlbrowse-test:*.qlbt\n")
        try folder.write("home/mime/magic", bytes: MagicFile.make([(50, "application/x-qlbrowse-test", [.init(value: Array("QLBT".utf8))])]))
        let database = SharedMimeDatabase(directories: Self.directories(folder))
        let sniffer = ContentSniffer(mimeDatabase: database)
        let named = try folder.write("picture.qlbt", bytes: Array("QLBT".utf8) + [0, 1, 2, 3, 0xff, 0xfe, 0x80, 0])
        let unnamed = try folder.write("no-extension", bytes: Array("QLBT".utf8) + [0, 1, 2, 3, 0xff, 0xfe, 0x80, 0])
        #expect(sniffer.contentType(ofFile: named) == ContentType("application/x-qlbrowse-test"))
        #expect(sniffer.contentType(ofFile: unnamed) == ContentType("application/x-qlbrowse-test"))
        // The built-in rules still stand for what the table knows.
        #expect(sniffer.decide(sniffed: ContentType("image/jpeg"), byName: ContentType("image/png"), shared: ContentType("image/png")) == ContentType("image/jpeg"))
        #expect(sniffer.decide(sniffed: ContentType("text/plain"), byName: nil, shared: ContentType("application/x-qlbrowse-test")) == ContentType("application/x-qlbrowse-test"))
        #expect(sniffer.decide(sniffed: .unknown, byName: nil, shared: ContentType("image/png")) == ContentType("image/png"))
        #expect(sniffer.decide(sniffed: ContentType("text/plain"), byName: nil, shared: ContentType("image/png")) == .plainText)
    }

    // MARK: - Helpers

    static func directories(_ folder: TemporaryFolder) -> XDGDataDirectories {
        XDGDataDirectories(dataHome: folder.path + "/home", dataDirectories: [folder.path + "/system"])
    }

    /// A provider for a script written into `folder`, next to a fixed 40×20 PNG it may copy.
    static func fakeProvider(_ folder: TemporaryFolder, script: String, name: String = "fake", minimum: Int? = nil,
                             deadline: Double = 10) throws -> ExternalProvider {
        let png = PNGEncoder.encode(PixelImage(width: 40, height: 20, filledWith: RGBA(200, 30, 40)))
        try folder.write("bin/fixed.png", bytes: png)
        let program = try folder.write("bin/\(name)-thumbnailer", script, executable: true)
        let entry = ThumbnailerFile(name: name, path: folder.path + "/\(name).thumbnailer", tryExec: nil,
                                    exec: "\"\(program)\" %o %s", mimeTypes: ["application/x-qlbrowse-test"], minimumDimension: minimum)
        return ExternalProvider(entry, deadline: deadline)
    }

    static func job(_ path: String, box: Int) -> ProviderJob {
        ProviderJob(path: path, contentType: ContentType("application/x-qlbrowse-test"), box: PixelSize(width: box, height: box),
                    wantsLowQuality: false, wantsThumbnail: true)
    }

    static func failure(_ body: () throws -> Void) -> ThumbnailError? {
        do { try body() } catch { return error as? ThumbnailError ?? ThumbnailError(.corrupt, "unexpected \(error)") }
        return nil
    }

    /// Whether no process runs `sleep <marker>` (waiting up to a second for the kernel to finish killing).
    static func waitUntilGone(_ marker: String) -> Bool {
        for _ in 0..<50 {
            let running = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.contains { pid in
                guard pid.allSatisfy(\.isNumber), let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
                let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                return arguments.contains(marker) && arguments.contains { $0.hasSuffix("sleep") }
            } ?? false
            if !running { return true }
            usleep(20_000)
        }
        return false
    }
}
