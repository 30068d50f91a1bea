import Foundation
import Testing

/// The browser, driven through tmux as a person would drive it.
@Suite(.serialized) struct BrowserTests {
    /// A small folder with known contents.
    private func library() throws -> URL {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-browse")
        for name in ["landscape.jpg", "clip.mp4", "doc.pdf", "hello.swift", "song-with-cover.mp3", "image.webp"] {
            try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Holidays"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent("portrait-exif6.jpg"), to: folder.appendingPathComponent("Holidays/beach.jpg"))
        try "secret".write(to: folder.appendingPathComponent(".hidden-notes.txt"), atomically: true, encoding: .utf8)
        try "pwned".write(to: folder.appendingPathComponent("\u{1B}]0;pwned\u{07}\u{1B}[2J.txt"), atomically: true, encoding: .utf8)
        return folder
    }

    private func browse(_ folder: URL, _ extra: String = "", columns: Int = 120, rows: Int = 35) throws -> TmuxSession {
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' \(extra) '\(folder.path)'", columns: columns, rows: rows)
        // Keys sent while the listing is still coming would land on an empty or partial list.
        #expect(session.waitFor { $0.contains("sort:name") && !$0.contains("reading…") }, "the browser did not start:\n\(session.screen())")
        return session
    }

    @Test func opensListsFoldersFirstAndQuitsRestoringTheShell() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try browse(folder)
        #expect(session.waitFor { _ in
            let lines = session.lines()
            return lines[0].contains(folder.path) && lines.last(where: { !$0.isEmpty })?.contains("1/8") == true
        }, "\(session.screen())")
        #expect(session.lines()[1].contains("Holidays/"), "folders come first:\n\(session.screen())")
        #expect(!session.screen().contains(".hidden-notes"))
        session.send("q")
        #expect(session.waitFor { $0.contains("EXITED:0") }, "\(session.screen())")
        #expect(!session.screen().contains("sort:name"), "the shell's screen is back")
    }

    @Test func movesFiltersSortsAndShowsHiddenFiles() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try browse(folder)
        session.send("j")
        #expect(session.waitFor { $0.contains("2/8") })
        session.send("G")
        #expect(session.waitFor { $0.contains("8/8") })
        session.send("/")
        session.type("LAND")
        #expect(session.waitFor { $0.contains("/LAND") && $0.contains("1/1") }, "\(session.screen())")
        session.send("Enter")
        session.send("Escape")
        #expect(session.waitFor { $0.contains("/8") && !$0.contains("/LAND") }, "\(session.screen())")
        session.send("s")
        #expect(session.waitFor { $0.contains("sort:size") })
        session.send(".")
        #expect(session.waitFor { $0.contains(".hidden-notes.txt") && $0.contains("/9") }, "\(session.screen())")
        session.send("q")
    }

    @Test func keysAndPreviewWidthComeFromTheConfigFile() throws {
        let folder = try library()
        let config = TestEnvironment.temporaryFolder("qlbrowse-config")
        defer { try? FileManager.default.removeItem(at: folder); try? FileManager.default.removeItem(at: config) }
        try FileManager.default.createDirectory(at: config.appendingPathComponent("qlbrowse"), withIntermediateDirectories: true)
        try """
        preview_width = 30   # percent
        [keys]
        "x" = "quit"
        q = "none"
        "ctrl-n" = "down"
        "#" = "help"
        """.write(to: config.appendingPathComponent("qlbrowse/config.toml"), atomically: true, encoding: .utf8)
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' '\(folder.path)'", environment: ["XDG_CONFIG_HOME": config.path])
        #expect(session.waitFor { $0.contains("sort:name") && $0.contains("1/8") }, "\(session.screen())")
        // The list takes 70 % of 120 columns: its border is at column 84 (waited for: a capture can
        // fall between the status line's drawing and the panes').
        #expect(session.waitFor { _ in
            let line = session.lines()[2]
            return line.count > 84 && Array(line)[84] == "│"
        }, "\(session.screen())")
        session.send("C-n")
        #expect(session.waitFor { $0.contains("2/8") }, "\(session.screen())")
        session.send("#")
        #expect(session.waitFor { $0.range(of: #" x +quit"#, options: .regularExpression) != nil }, "the help names the user's keys:\n\(session.screen())")
        session.send("Escape")
        session.send("q")
        #expect(!session.waitFor(1) { $0.contains("EXITED") }, "q was unbound")
        session.send("x")
        #expect(session.waitFor { $0.contains("EXITED:0") }, "\(session.screen())")
    }

    @Test func theMouseWheelMovesAndAClickSelects() throws {
        // tmux cannot inject mouse reports: Tests/Support/mouse.py writes them to a pty as xterm would.
        let result = TestEnvironment.runScenario("mouse.py", folder: "qlbrowse-mouse")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 4, "\(result.stdout)")
    }

    @Test func entersAFolderAndComesBackToIt() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try browse(folder)
        session.send("Enter")
        #expect(session.waitFor { $0.contains("beach.jpg") && $0.contains("Holidays") }, "\(session.screen())")
        session.send("h")
        #expect(session.waitFor { _ in
            session.screen().contains("landscape.jpg") && session.lines().last(where: { !$0.isEmpty })?.contains("1/8") == true
        }, "the cursor is back on Holidays:\n\(session.screen())")
        session.send("q")
    }

    @Test func hostileFileNamesAreShownEscapedAndDoNothing() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try browse(folder)
        let titleBefore = session.paneTitle
        #expect(session.waitFor { $0.contains("\\e]0;pwned\\a\\e[2J.txt") }, "\(session.screen())")
        #expect(session.paneTitle == titleBefore)
        #expect(session.paneTitle != "pwned")
        #expect(session.screen().contains("landscape.jpg"), "the screen was not cleared by the name")
        session.send("q")
    }

    @Test func gridViewShowsTilesWithNames() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try browse(folder)
        session.send("v")
        #expect(session.waitFor { screen in
            let lines = screen.split(separator: "\n").map(String.init)
            return lines.contains { $0.contains("Holidays") && $0.contains("clip.mp4") && $0.contains("doc.pdf") }
        }, "\(session.screen())")
        // Pictures arrive as block characters above the names.
        #expect(session.waitFor(30) { screen in screen.unicodeScalars.filter { (0x2580...0x259F).contains($0.value) }.count > 100 }, "\(session.screen())")
        session.send("q")
    }

    /// A key pressed before the browser has asked the terminal what it is stays a key: the probe
    /// reads the answers from the same input and used to drop it (a `v` sent at once was lost, so
    /// BrowserServiceTests' second window stayed in the list and made 2 thumbnails, not 5).
    @Test func aKeyTypedBeforeTheTerminalIsAskedIsNotLost() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The shell sleeps first, so `v` already waits in the terminal's input when the probe reads it.
        let session = try TmuxSession(command: "sleep 1; '\(TestEnvironment.qlbrowse)' --graphics symbols '\(folder.path)'", columns: 120, rows: 35)
        session.send("v")
        #expect(session.waitFor { screen in
            screen.split(separator: "\n").contains { $0.contains("Holidays") && $0.contains("clip.mp4") && $0.contains("doc.pdf") }
        }, "the grid did not come: \(session.screen())")
        session.send("q")
    }

    @Test func quickLookOpensStepsAndClosesRestoringTheList() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try browse(folder)
        session.send("j", "j")  // Holidays, the escape-named file, then clip.mp4
        #expect(session.waitFor { $0.contains("3/8") })
        session.send("Space")
        #expect(session.waitFor { $0.contains("previous/next") && $0.contains("clip.mp4") && $0.contains("3/8") }, "\(session.screen())")
        // The picture comes from libav, or from the cache the list's thumbnail just filled: since the
        // cache keeps a thumbnail's facts, the duration and codec show either way.
        #expect(session.waitFor(30) { ($0.contains("from libav") || $0.contains("from cache")) && $0.contains("duration 0:05") && $0.contains("codec h264") },
                "\(session.screen())")
        session.send("Right")
        #expect(session.waitFor { $0.contains("doc.pdf") && $0.contains("4/8") }, "\(session.screen())")
        #expect(session.waitFor(30) { $0.contains("from poppler") }, "\(session.screen())")
        session.send("Escape")
        #expect(session.waitFor { !$0.contains("previous/next") && $0.contains("sort:name") && $0.contains("4/8") },
                "the list comes back with the cursor where Quick Look left it:\n\(session.screen())")
        session.send("q")
    }

    @Test func resizingRedrawsAtOnce() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try browse(folder)
        session.resize(columns: 50, rows: 12)
        #expect(session.waitFor { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 12 && lines[11].contains("1/8") && !lines[1].contains("│")
        }, "\(session.screen())")
        session.resize(columns: 120, rows: 35)
        #expect(session.waitFor { $0.contains("│") })
        session.send("q")
    }

    @Test func choosedirWritesTheFolderOnQuit() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("chosen.txt")
        let session = try browse(folder, "--choosedir '\(target.path)'")
        session.send("Enter")
        #expect(session.waitFor { $0.contains("beach.jpg") })
        session.send("q")
        #expect(session.waitFor { $0.contains("EXITED:0") })
        #expect((try? String(contentsOf: target, encoding: .utf8)) == folder.appendingPathComponent("Holidays").path + "\n")
    }

    @Test func helpOpensAndCloses() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try browse(folder)
        session.send("?")
        #expect(session.waitFor { $0.contains("qlbrowse keys") })
        session.send("Escape")
        #expect(session.waitFor { !$0.contains("qlbrowse keys") })
        session.send("q")
    }

    /// Issue 23 point 9: the camera showed when the thumbnail was made, not when it came from the cache.
    @Test func photoDetailsShowAgainWhenThePictureComesFromTheCache() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-facts")
        let cache = TestEnvironment.temporaryFolder("qlbrowse-facts-cache")
        defer { try? FileManager.default.removeItem(at: folder); try? FileManager.default.removeItem(at: cache) }
        try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent("with-exif-thumb.jpg"),
                                         to: folder.appendingPathComponent("photo.jpg"))
        for visit in ["fresh", "cached"] {
            let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' '\(folder.path)'", environment: ["XDG_CACHE_HOME": cache.path])
            #expect(session.waitFor { $0.contains("from ") && $0.contains("Fixture Camera") },
                    "\(visit): no camera in the preview pane:\n\(session.screen())")
            if visit == "cached" {
                #expect(session.screen().contains("from cache"), "the second visit's picture is the cached one:\n\(session.screen())")
            }
            session.send("q")
            #expect(session.waitFor { $0.contains("EXITED:0") }, "\(session.screen())")
        }
    }

    /// A thumbnail a batch run cached (made without facts) is shown at once and made again for
    /// the camera, which then shows.
    @Test func photoDetailsShowForAThumbnailABatchRunCached() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-facts")
        let cache = TestEnvironment.temporaryFolder("qlbrowse-facts-cache")
        defer { try? FileManager.default.removeItem(at: folder); try? FileManager.default.removeItem(at: cache) }
        try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent("with-exif-thumb.jpg"),
                                         to: folder.appendingPathComponent("photo.jpg"))
        // Every size class, whichever the preview pane asks for.
        for size in ["128", "256", "512", "1024"] {
            let batch = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "-r", "-s", size, folder.path], environment: ["XDG_CACHE_HOME": cache.path])
            #expect(batch.status == 0, "\(batch.stderr)")
        }
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' '\(folder.path)'", environment: ["XDG_CACHE_HOME": cache.path])
        #expect(session.waitFor { $0.contains("from ") && $0.contains("Fixture Camera") && !$0.contains("(preview)") },
                "no camera for the batch-cached photo:\n\(session.screen())")
        session.send("q")
        #expect(session.waitFor { $0.contains("EXITED:0") }, "\(session.screen())")
    }

    @Test func ctrlCQuitsAndRestoresTheTerminal() throws {
        let folder = try library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try browse(folder)
        session.send("C-c")
        #expect(session.waitFor { $0.contains("EXITED:0") }, "\(session.screen())")
        #expect(!session.screen().contains("sort:name"))
    }

    @Test func aMissingFolderIsAClearError() {
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["/nonexistent/folder"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot open /nonexistent/folder: No such file or directory"), "\(result.stderr)")
    }
}
