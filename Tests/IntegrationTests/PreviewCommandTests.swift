import Foundation
import Testing
import ThumbnailKit

/// `qlbrowse preview`, as lf, fzf, ranger or nnn call it for their preview panes.
@Suite struct PreviewCommandTests {
    /// A 200x150 picture: red and green over blue and yellow.
    private func quadrants(in folder: URL) throws -> String {
        var image = PixelImage(width: 200, height: 150, filledWith: RGBA(255, 0, 0))
        for y in 0..<150 {
            for x in 0..<200 where x >= 100 || y >= 75 {
                let colour: [UInt8] = y < 75 ? [0, 200, 0, 255] : x < 100 ? [0, 0, 255, 255] : [255, 220, 0, 255]
                image.pixels.replaceSubrange((y * 200 + x) * 4..<((y * 200 + x) * 4 + 4), with: colour)
            }
        }
        let path = folder.appendingPathComponent("quadrants.png").path
        try AtomicFileWriter.write(PNGEncoder.encode(image), to: path)
        return path
    }

    private func preview(_ arguments: [String], term: String = "xterm-256color", colorterm: String = "") -> TestEnvironment.Result {
        TestEnvironment.run(TestEnvironment.qlbrowse, ["preview"] + arguments, environment: ["TERM": term, "COLORTERM": colorterm])
    }

    @Test func blockArtFitsTheCellsAndShowsThePicturesColours() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-preview")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try quadrants(in: folder)
        let result = preview([file, "--size", "40x12", "--graphics", "symbols"], colorterm: "truecolor")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count <= 12 && lines.count >= 10, "\(lines.count) rows")
        let first = String(lines.first ?? ""), last = String(lines.last ?? "")
        #expect(first.contains("2;255;0;0") && first.contains("2;0;200;0"), "top row: red and green")
        #expect(last.contains("2;0;0;255") && last.contains("2;255;220;0"), "bottom row: blue and yellow")
        // 256 colours: palette indices (red 196, blue 21), never packed RGB.
        let indexed = preview([file, "--size", "40x12", "--graphics", "symbols"]).stdout
        #expect(indexed.contains("5;196") && indexed.contains("5;21") && !indexed.contains(";2;"))
    }

    @Test func aPreviewIsCachedSoTheNextCallDecodesNothingAndAFolderGetsItsIcon() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-preview")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try quadrants(in: folder)
        let cache = folder.appendingPathComponent("cache").path
        let arguments = [file, "--size", "40x12", "--graphics", "symbols"]
        let first = TestEnvironment.run(TestEnvironment.qlbrowse, ["preview"] + arguments, environment: ["XDG_CACHE_HOME": cache])
        #expect(first.status == 0, "\(first.stderr)")
        // The picture is drawn while the cache is written; the call ends only once it is written.
        let stored = (try? FileManager.default.subpathsOfDirectory(atPath: cache + "/thumbnails")) ?? []
        #expect(stored.contains { $0.hasSuffix(".png") && !$0.hasPrefix("fail") }, "\(stored)")
        // No worker can start now: the second call is served from the cache, the same picture.
        let second = TestEnvironment.run(TestEnvironment.qlbrowse, ["preview"] + arguments,
                                         environment: ["XDG_CACHE_HOME": cache, "QLBROWSE_THUMBNAILER": "/nonexistent/worker"])
        #expect(second.status == 0 && second.stdout == first.stdout, "\(second.stderr)")
        let icon = preview([folder.path, "--size", "20x8", "--graphics", "symbols"])
        #expect(icon.status == 0 && icon.stdout.contains("\u{1B}["), "a folder shows its icon: \(icon.stderr)")
    }

    @Test func kittyAndSixelAreSequencesForTheTerminal() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-preview")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try quadrants(in: folder)
        let kitty = preview([file, "--size", "30x10", "--graphics", "kitty"]).stdout
        #expect(kitty.hasPrefix("\u{1B}_Ga=t,f=100,t=d,i=") && kitty.contains("a=p,i="), "PNG sent, then placed at the cursor")
        let sixel = preview([file, "--size", "30x10", "--graphics", "sixel"]).stdout
        #expect(sixel.hasPrefix("\u{1B}P") && sixel.contains("\u{1B}\\"))
        // Without --graphics, kitty's variables choose kitty; anything else gets block art.
        let auto = TestEnvironment.run(TestEnvironment.qlbrowse, ["preview", file, "--size", "30x10"], environment: ["TERM": "xterm-kitty"]).stdout
        #expect(auto.hasPrefix("\u{1B}_G"))
        #expect(preview([file, "--size", "30x10"], term: "xterm-256color").stdout.contains("\u{1B}[0;"))
    }

    @Test func textFilesPrintTheirFirstLinesMadeSafe() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-preview")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try ("first line\n\u{1B}]0;pwned\u{07}second\n" + (3...100).map { "line \($0)" }.joined(separator: "\n")).write(to: file, atomically: true, encoding: .utf8)
        let result = preview([file.path, "--size", "60x5"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 5)
        #expect(result.stdout.hasPrefix("first line\n\\e]0;pwned"), "escape sequences are shown, not run: \(result.stdout)")
    }

    @Test func mistakesAreClearErrors() throws {
        let missing = preview(["/nonexistent/photo.jpg", "--size", "20x5"])
        #expect(missing.status != 0 && missing.stderr.contains("cannot preview /nonexistent/photo.jpg"), "\(missing.stderr)")
        #expect(preview(["x.jpg", "--size", "big"]).stderr.contains("--size takes COLSxROWS"))
        #expect(preview(["x.jpg", "--graphics", "fancy"]).status != 0)
        #expect(preview([]).stderr.contains("preview needs a FILE"))
    }
}

/// The README's set-ups for lf, ranger, nnn and fzf, read from the README and run for real in tmux
/// (Tests/Support/previewers.py): the picture in each preview pane, the next file's after a key,
/// nothing left after quitting. A program that is not installed is skipped.
@Suite struct PreviewerSetUpTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "needs tmux"))
    func theReadmeSetUpsShowThePictureInEachPreviewPane() throws {
        let result = TestEnvironment.runScenario("previewers.py", folder: "qlbrowse-previewers")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        for program in ["lf", "ranger", "nnn", "fzf"] where ["/usr/bin/", "/usr/local/bin/"].contains(where: { FileManager.default.isExecutableFile(atPath: $0 + program) }) {
            let passed = result.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS \(program):") }.count
            #expect(passed == 3, "\(program): \(result.stdout)")
        }
    }
}
