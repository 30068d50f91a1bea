import Foundation
import SystemKit
import Testing
import ThumbnailKit
@testable import Providers

@Suite struct ExternalPreviewerTests {
    // MARK: - The file format

    @Test func parsesAPreviewerFile() throws {
        let text = """
            # Markdown through glow
            [Desktop Entry]
            Exec=not-this-one
            [Previewer Entry]
            TryExec=glow
            Exec=glow --style=dark --width=%c %i
            MimeType=text/markdown; Text/X-Markdown ;
            Output=text
            Override=true
            """
        let entry = try #require(PreviewerFile.parse(text, path: "/home/me/.config/qlbrowse/previewers/glow.previewer"))
        #expect(entry.name == "glow")
        #expect(entry.tryExec == "glow")
        #expect(entry.exec == "glow --style=dark --width=%c %i")
        #expect(entry.mimeTypes == ["text/markdown", "text/x-markdown"])
        #expect(entry.output == .text && entry.overridesBuiltIn && !entry.writesOutputFile)
        #expect(entry.info(for: "text/markdown") == PreviewerInfo(name: "glow", path: entry.path, mimeType: "text/markdown",
                                                                  output: .text, overridesBuiltIn: true))
    }

    @Test func outputAndOverrideDefaultsAndTypos() {
        func parse(_ body: String) -> PreviewerFile? { PreviewerFile.parse("[Previewer Entry]\n" + body, path: "/p/x.previewer") }
        // Without Output: an image when the line names %o, else text; built-ins win by default.
        #expect(parse("Exec=tool %i %o\nMimeType=a/b;\n")?.output == .image)
        #expect(parse("Exec=tool %i %o\nMimeType=a/b;\n")?.overridesBuiltIn == false)
        #expect(parse("Exec=tool %i\nMimeType=a/b;\n")?.output == .text)
        #expect(parse("Exec=tool --percent=100%%o %i\nMimeType=a/b;\n")?.output == .text)
        // A picture printed on standard output.
        let stdoutImage = parse("Exec=tool %i\nMimeType=a/b;\nOutput=image\nOverride=false\n")
        #expect(stdoutImage?.output == .image && stdoutImage?.writesOutputFile == false)
        // Typos and missing keys reject the file rather than guess.
        #expect(parse("Exec=tool %i\nMimeType=a/b;\nOutput=picture\n") == nil)
        #expect(parse("Exec=tool %i\nMimeType=a/b;\nOverride=yes\n") == nil)
        #expect(parse("MimeType=a/b;\n") == nil)
        #expect(parse("Exec=tool %i\n") == nil)
        #expect(PreviewerFile.parse("[Thumbnailer Entry]\nExec=tool %i\nMimeType=a/b;\n", path: "/p/x.previewer") == nil)
    }

    @Test func previewerFieldCodesExpandOnlyForPreviewers() {
        var values = ThumbnailerCommand.Values(input: "/in put", output: "/o.png", size: 640, mimeType: "a/b",
                                               width: 640, height: 480, columns: 100, rows: 30)
        #expect(ThumbnailerCommand.arguments("tool %i -s %wx%h --width=%c --height %r -o %o", values)
                == ["tool", "/in put", "-s", "640x480", "--width=100", "--height", "30", "-o", "/o.png"])
        // A thumbnailer gets no %w %h %c %r: removed as unknown codes, as before.
        values = ThumbnailerCommand.Values(input: "/in", output: "/o.png", size: 256, mimeType: "a/b")
        #expect(ThumbnailerCommand.arguments("tool %w %i %c", values) == ["tool", "/in"])
    }

    // MARK: - Folders, hiding, TryExec and matching

    @Test func theConfigFolderComesFirstThenEachDataFolder() {
        let environment = ProcessEnvironment(["HOME": "/home/ann", "XDG_CONFIG_HOME": "/k", "XDG_DATA_DIRS": "/a:/b/:/a"])
        #expect(ExternalPreviewers.folders(environment) == ["/k/qlbrowse/previewers", "/a/qlbrowse/previewers", "/b/qlbrowse/previewers"])
        #expect(ExternalPreviewers.folders(ProcessEnvironment(["HOME": "/home/ann"]))
                == ["/home/ann/.config/qlbrowse/previewers", "/usr/local/share/qlbrowse/previewers", "/usr/share/qlbrowse/previewers"])
    }

    @Test func anEarlierFolderHidesTheSameNameAndMissingTryExecIsSkipped() throws {
        let folder = try TemporaryFolder()
        try folder.write("config/shared.previewer", "[Previewer Entry]\nExec=sh %i\nMimeType=text/x-user;\n")
        try folder.write("system/shared.previewer", "[Previewer Entry]\nExec=sh %i\nMimeType=text/x-system;\n")
        try folder.write("system/a-first.previewer", "[Previewer Entry]\nExec=sh %i\nMimeType=text/x-both;\n")
        try folder.write("system/b-second.previewer", "[Previewer Entry]\nExec=sh %i\nMimeType=text/x-both;text/x-second;\n")
        try folder.write("system/missing.previewer",
                         "[Previewer Entry]\nTryExec=qlbrowse-no-such-program-\(UUID().uuidString)\nExec=x %i\nMimeType=text/x-missing;\n")
        try folder.write("system/not-a-previewer.thumbnailer", "[Previewer Entry]\nExec=sh %i\nMimeType=text/x-other;\n")
        // A file without Exec turns a system previewer of that name off.
        try folder.write("config/off.previewer", "[Previewer Entry]\n")
        try folder.write("system/off.previewer", "[Previewer Entry]\nExec=sh %i\nMimeType=text/x-off;\n")
        let previewers = Self.previewers(folder)
        #expect(previewers.entries.map(\.name) == ["shared", "a-first", "b-second"])
        #expect(previewers.skipped.map(\.name) == ["missing"])
        #expect(previewers.previewer(for: ContentType("text/x-user"))?.path == folder.path + "/config/shared.previewer")
        #expect(previewers.previewer(for: ContentType("text/x-system")) == nil)
        #expect(previewers.previewer(for: ContentType("text/x-both"))?.name == "a-first")
        #expect(previewers.previewer(for: ContentType("text/x-second"))?.name == "b-second")
        #expect(previewers.previewer(for: ContentType("text/x-missing")) == nil)
        #expect(previewers.previewer(for: ContentType("text/x-other")) == nil)
        #expect(previewers.previewer(for: ContentType("text/x-off")) == nil)
    }

    @Test func matchesTheExactTypeOnlyAfterAliases() throws {
        let folder = try TemporaryFolder()
        try folder.write("home/mime/subclasses", "text/x-qlbrowse-sub text/x-qlbrowse-test\n")
        try folder.write("home/mime/aliases", "text/x-qlbt-old text/x-qlbrowse-test\n")
        try folder.write("config/test.previewer", "[Previewer Entry]\nExec=sh %i\nMimeType=text/x-qlbt-old;\n")
        let previewers = Self.previewers(folder)
        #expect(previewers.previewer(for: ContentType("text/x-qlbrowse-test"))?.name == "test")
        #expect(previewers.previewer(for: ContentType("text/x-qlbt-old"))?.name == "test")
        #expect(previewers.previewer(for: ContentType("text/x-qlbrowse-sub")) == nil)
        #expect(previewers.previewer(for: ContentType("text/plain")) == nil)
    }

    @Test func theCatalogListsPreviewers() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("config/md.previewer", "[Previewer Entry]\nExec=sh %i\nMimeType=text/markdown;text/x-rst;\nOverride=true\n")
        let rows = ProviderCatalog.previewerRows(previewers: Self.previewers(folder))
        #expect(rows.map(\.type) == ["text/markdown", "text/x-rst"])
        #expect(rows.allSatisfy { $0.previewer == "md" && $0.output == "text" && $0.overridesBuiltIn && $0.origin == path })
    }

    // MARK: - Running previewers

    @Test func aTextPreviewerReturnsItsOutputAsPrinted() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("input.qlbt", "QLBT")
        let runner = try Self.fake(folder, exec: "%i %c %r %w %h %m", script: #"""
            #!/bin/sh
            printf '\033[1;31m%s\033[0m %s %s %s %s %s\n' "$(cat "$1")" "$2" "$3" "$4" "$5" "$6"
            # Not SGR: a title change, a bell, and bytes that are not UTF-8. Passed on as they are.
            printf '\033]0;title\007\377\376end'
            """#)
        let preview = try runner.preview(path: input, type: ContentType("text/x-qlbrowse-test"), box: PixelSize(width: 640, height: 480),
                                         columns: 100, rows: 30, deadline: 10, cancellation: CancellationFlag())
        #expect(preview.previewer.name == "fake" && preview.previewer.mimeType == "text/x-qlbrowse-test" && !preview.truncated)
        let expected = Array("\u{1B}[1;31mQLBT\u{1B}[0m 100 30 640 480 text/x-qlbrowse-test\n\u{1B}]0;title\u{07}".utf8) + [0xFF, 0xFE] + Array("end".utf8)
        #expect(preview.content == .text(expected))
    }

    @Test func endlessTextIsCutAtTheLimitAndTheCommandStopped() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("input.qlbt", "QLBT")
        let runner = try Self.fake(folder, exec: "%i", script: "#!/bin/sh\nexec yes 'a line of text'\n")
        let start = Date()
        let preview = try runner.preview(path: input, type: ContentType("text/x-qlbrowse-test"), box: PixelSize(width: 10, height: 10),
                                         columns: 80, rows: 24, deadline: 10, cancellation: CancellationFlag())
        #expect(preview.truncated)
        guard case .text(let bytes) = preview.content else { Issue.record("not text"); return }
        #expect(bytes.count == PreviewGenerator.maximumCustomTextBytes)
        #expect(bytes.starts(with: Array("a line of text\na line".utf8)))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func imagePreviewersWriteToTheOutputFileOrStandardOutput() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("input.qlbt", "QLBT")
        let png = PNGEncoder.encode(PixelImage(width: 200, height: 100, filledWith: RGBA(20, 120, 220)))
        try folder.write("bin/fixed.png", bytes: png)
        let toFile = try Self.fake(folder, exec: "%o", script: "#!/bin/sh\ncp \"$(dirname \"$0\")/fixed.png\" \"$1\"\n", output: .image)
        let toStdout = try Self.fake(folder, exec: "", script: "#!/bin/sh\ncat \"$(dirname \"$0\")/fixed.png\"\n", name: "piped", output: .image)
        for runner in [toFile, toStdout] {
            let preview = try runner.preview(path: input, type: ContentType("text/x-qlbrowse-test"), box: PixelSize(width: 100, height: 100),
                                             columns: 80, rows: 24, deadline: 10, cancellation: CancellationFlag())
            guard case .image(let image) = preview.content else { Issue.record("\(runner.previewer.name): not an image"); continue }
            #expect(image.size == PixelSize(width: 100, height: 50), "\(runner.previewer.name)")
            #expect(image.pixel(x: 10, y: 10) == RGBA(20, 120, 220))
        }
    }

    @Test func failingHangingAndSilentPreviewersAreCleanErrors() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("input.qlbt", "QLBT")
        func failure(_ runner: ExternalPreviewer, deadline: Double = 10) -> ThumbnailError? {
            ExternalThumbnailerTests.failure {
                _ = try runner.preview(path: input, type: ContentType("text/x-qlbrowse-test"), box: PixelSize(width: 50, height: 50),
                                       columns: 80, rows: 24, deadline: deadline, cancellation: CancellationFlag())
            }
        }
        #expect(failure(try Self.fake(folder, exec: "%i", script: "#!/bin/sh\necho partial\nexit 3\n")) == ThumbnailError(.corrupt, "fake failed: exit 3"))
        #expect(failure(try Self.fake(folder, exec: "%o", script: "#!/bin/sh\nexit 0\n", name: "silent", output: .image))?.code == .corrupt)
        let marker = String(800_000 + Int.random(in: 0..<99_999))
        let start = Date()
        let hanging = try Self.fake(folder, exec: "%i", script: "#!/bin/sh\nexec sleep \(marker)\n", name: "hanging")
        #expect(failure(hanging, deadline: 1) == ThumbnailError(.timedOut, "hanging took longer than 1 s"))
        #expect(Date().timeIntervalSince(start) < 2.5)
        #expect(ExternalThumbnailerTests.waitUntilGone(marker), "a `sleep \(marker)` process is left behind")
    }

    // MARK: - Helpers

    static func previewers(_ folder: TemporaryFolder) -> ExternalPreviewers {
        let directories = XDGDataDirectories(dataHome: folder.path + "/home", dataDirectories: [folder.path + "/nothing"])
        return ExternalPreviewers(folders: [folder.path + "/config", folder.path + "/system"],
                                  mimeDatabase: SharedMimeDatabase(directories: directories), searchPath: "/usr/bin:/bin")
    }

    /// A runner for a script written into `folder/bin`, called as `"script" <exec>`.
    static func fake(_ folder: TemporaryFolder, exec: String, script: String, name: String = "fake",
                     output: PreviewerInfo.Output = .text) throws -> ExternalPreviewer {
        let program = try folder.write("bin/\(name)-previewer", script, executable: true)
        let entry = PreviewerFile(name: name, path: folder.path + "/\(name).previewer", tryExec: nil, exec: "\"\(program)\" \(exec)",
                                  mimeTypes: ["text/x-qlbrowse-test"], output: output, overridesBuiltIn: false)
        return ExternalPreviewer(entry)
    }
}
