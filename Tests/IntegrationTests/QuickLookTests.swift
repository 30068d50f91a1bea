import Foundation
import Testing

/// Quick Look on whole files, driven through tmux as a person would: paging a PDF, scrolling a
/// long text and a 2 GB sparse log, listing an archive, seeking in a video.
@Suite(.serialized) struct QuickLookTests {
    private func folder(_ names: [String]) throws -> URL {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-quicklook")
        for name in names {
            try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return folder
    }

    private func quickLook(_ folder: URL, _ graphics: String = "symbols") throws -> TmuxSession {
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics \(graphics) '\(folder.path)'", columns: 120, rows: 35)
        #expect(session.waitFor { $0.contains("sort:name") && !$0.contains("reading…") }, "the browser did not start:\n\(session.screen())")
        session.send("Space")
        return session
    }

    /// The picture area as drawn, escapes included: what changes when the picture does.
    private func picture(_ session: TmuxSession) -> String {
        session.screen(escapes: true).split(separator: "\n").dropFirst().dropLast(2).joined(separator: "\n")
    }

    @Test func aPDFPagesToAnyPageAndThePictureChanges() throws {
        let folder = try folder(["pages12.pdf"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try quickLook(folder)
        #expect(session.waitFor(20) { $0.contains("page 1/12") }, "\(session.screen())")
        #expect(session.waitFor(10) { _ in self.picture(session).contains("\u{1B}[") }, "the page is drawn (in colours)")
        let first = picture(session)
        session.send("PageDown")
        #expect(session.waitFor { $0.contains("page 2/12") }, "\(session.screen())")
        session.send("7", "Enter")
        #expect(session.waitFor { $0.contains("page 7/12") && $0.contains("previous/next") }, "a number then Enter jumps, Quick Look stays:\n\(session.screen())")
        #expect(session.waitFor(10) { _ in self.picture(session) != first }, "page 7 looks different from page 1")
        session.send("G")
        #expect(session.waitFor { $0.contains("page 12/12") })
        session.send("j")
        #expect(session.waitFor { $0.contains("page 12/12") }, "not past the last page")
        session.send("g")
        #expect(session.waitFor { $0.contains("page 1/12") })
        session.send("q")
    }

    @Test func longTextAndASparseLogScroll() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-quicklook-text")
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = folder.appendingPathComponent("a-long.txt")
        try (0..<100_000).map { "line \($0 + 1) of the long file" }.joined(separator: "\n").appending("\n").write(to: long, atomically: true, encoding: .utf8)
        // 2 GB with lines at both ends and a hole between: the end is reached by scanning, the top at once.
        let sparse = folder.appendingPathComponent("b-sparse.log")
        try (0..<1000).map { "head \($0)" }.joined(separator: "\n").appending("\n").write(to: sparse, atomically: true, encoding: .utf8)
        let handle = try FileHandle(forWritingTo: sparse)
        try handle.truncate(atOffset: 2 << 30)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(("\n" + (0..<1000).map { "tail \($0)" }.joined(separator: "\n") + "\n").utf8))
        try handle.close()
        let session = try quickLook(folder)
        #expect(session.waitFor { $0.contains("lines 1–") && $0.contains("line 1 of the long file") }, "\(session.screen())")
        session.send("PageDown")
        #expect(session.waitFor { $0.contains("lines 32–") && $0.contains("line 40 of the long file") }, "\(session.screen())")
        session.send("5", "0", "0", "0", "0", "Enter")
        #expect(session.waitFor { $0.contains("lines 50000–") && $0.contains("line 50001 of the long file") }, "\(session.screen())")
        session.send("G")
        #expect(session.waitFor(10) { $0.contains("of 100000") && $0.contains("line 100000 of the long file") }, "\(session.screen())")
        session.send("Right")
        #expect(session.waitFor { $0.contains("b-sparse.log") && $0.contains("head 0") }, "the top of a 2 GB file at once:\n\(session.screen())")
        session.send("G")
        #expect(session.waitFor(30) { $0.contains("tail 999") && $0.contains(" of 2001") }, "\(session.screen())")
        session.send("q")
    }

    @Test func anArchiveListsItsMembersAsATree() throws {
        let folder = try folder(["members.zip", "members.tar.xz"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try quickLook(folder)
        #expect(session.waitFor(20) { $0.contains("members.tar.xz") && $0.contains("unpacked") && $0.contains("▸ ") }, "\(session.screen())")
        let tar = session.screen()
        session.send("Right")
        #expect(session.waitFor(20) { $0.contains("members.zip") && $0.contains("unpacked") }, "\(session.screen())")
        let zip = session.screen()
        let rows = { (screen: String) in screen.split(separator: "\n").dropFirst(2).prefix(7).map { $0.prefix(40).trimmingCharacters(in: .whitespaces) } }
        #expect(rows(zip) == rows(tar) && rows(zip).contains("▸ docs/"), "the same tree in a zip and a tar.xz:\n\(zip)\n\(tar)")
        session.send("q")
    }

    @Test func aVideoSeeksAndShowsWhereItIs() throws {
        let folder = try folder(["long-1080p.mp4"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try quickLook(folder)
        #expect(session.waitFor(20) { $0.contains("0:00 / 0:20") && $0.contains("●") }, "\(session.screen())")
        let start = picture(session)
        session.send("j")
        #expect(session.waitFor { $0.contains("0:05 / 0:20") }, "\(session.screen())")
        session.send("1", "2", "Enter")
        #expect(session.waitFor { $0.contains("0:12 / 0:20") }, "\(session.screen())")
        #expect(session.waitFor(10) { _ in self.picture(session) != start }, "the frame changed")
        session.send("q")
    }
}

extension QuickLookTests {
    /// GIF, APNG and animated WebP play by themselves, looping through their three frames; a
    /// still PNG stays a picture.
    @Test func animationsPlayAndLoopAndStillPicturesStayStill() throws {
        let folder = try folder(["animated.gif", "animated.png", "animated.webp", "palette.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try quickLook(folder)
        for (index, name) in ["animated.gif", "animated.png", "animated.webp"].enumerated() {
            if index > 0 { session.send("Right") }
            #expect(session.waitFor { $0.contains(name) && $0.contains(" / 0:01") && $0.contains("p play/pause") }, "\(session.screen())")
            // Three frames of half a second each: within a few seconds, three different pictures
            // and the first one again (it loops).
            var seen: [String] = []
            #expect(session.waitFor(10) { _ in
                let picture = self.picture(session)
                if seen.last != picture { seen.append(picture) }
                return Set(seen).count >= 3 && seen.count > Set(seen).count
            }, "\(name): \(Set(seen).count) pictures in \(seen.count) changes")
        }
        session.send("Right")
        #expect(session.waitFor { $0.contains("palette.png") && $0.contains("+ zoom in") }, "\(session.screen())")
        #expect(!session.waitFor(2) { $0.contains(" / 0:0") }, "a still PNG has no time line (the worker's answer included):\n\(session.screen())")
        session.send("Left")
        #expect(session.waitFor { $0.contains("animated.webp") && $0.contains(" / 0:01") }, "shown again, it plays again:\n\(session.screen())")
        session.send("q")
    }

    @Test func aCustomPreviewerShowsItsTextForItsTypeOnly() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-quicklook-custom")
        defer { try? FileManager.default.removeItem(at: folder) }
        let previewers = folder.appendingPathComponent("config/qlbrowse/previewers")
        try FileManager.default.createDirectory(at: previewers, withIntermediateDirectories: true)
        // Colours are kept; a title-setting sequence is shown as text, never sent to the terminal.
        try """
        [Previewer Entry]
        Exec=sh -c 'printf "\\033[1;31mRENDERED\\033[0m %%s\\n" "$(head -1 "$1")"; printf "x \\033]0;evil\\007 y\\n"' sh %i
        MimeType=text/markdown;
        Output=text
        Override=true
        """.write(to: previewers.appendingPathComponent("markdown.previewer"), atomically: true, encoding: .utf8)
        let files = folder.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try "# Title\nbody\n".write(to: files.appendingPathComponent("a.md"), atomically: true, encoding: .utf8)
        try "plain words\n".write(to: files.appendingPathComponent("b.txt"), atomically: true, encoding: .utf8)
        let session = try TmuxSession(command: "env XDG_CONFIG_HOME='\(folder.path)/config' '\(TestEnvironment.qlbrowse)' --graphics none '\(files.path)'", columns: 100, rows: 20)
        #expect(session.waitFor { $0.contains("sort:name") })
        session.send("Space")
        #expect(session.waitFor(20) { $0.contains("RENDERED # Title") && $0.contains("x ]0;evil y") }, "\(session.screen())")
        #expect(session.screen(escapes: true).split(separator: "\n").contains { $0.contains("\u{1B}[1m") && $0.contains("RENDERED") },
                "its styles are kept (bold; this tmux shows no colours)")
        session.send("Right")
        #expect(session.waitFor(10) { $0.contains("plain words") && !$0.contains("RENDERED") }, "plain text is not its type:\n\(session.screen())")
        session.send("q")
    }
}

extension QuickLookTests {
    @Test func anEPUBShowsItsCoverAndItsMembersAKeyAway() throws {
        let folder = try folder(["book.epub"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try quickLook(folder)
        #expect(session.waitFor(20) { $0.contains("m members") && $0.contains("from cover") }, "\(session.screen())")
        session.send("m")
        #expect(session.waitFor(20) { $0.contains("unpacked") && $0.contains("mimetype") && $0.contains("m picture") }, "\(session.screen())")
        session.send("m")
        #expect(session.waitFor { $0.contains("m members") && !$0.contains("unpacked") }, "\(session.screen())")
        session.send("q")
    }
}

extension QuickLookTests {
    @Test func aPhotoZoomsAndPans() throws {
        let folder = try folder(["landscape.jpg", "notes.txt"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try quickLook(folder)
        #expect(session.waitFor(20) { $0.contains("+ zoom in") && $0.contains("from ") }, "\(session.screen())")
        #expect(session.waitFor(10) { _ in self.picture(session).contains("\u{1B}[") })
        let fitted = picture(session)
        session.type("+")
        #expect(session.waitFor { $0.contains("zoom 2×") && $0.contains("hjkl move") }, "\(session.screen())")
        #expect(session.waitFor(10) { _ in self.picture(session) != fitted }, "the enlarged part is drawn")
        let zoomed = picture(session)
        session.type("l")
        #expect(session.waitFor(10) { screen in screen.contains("zoom 2×") && self.picture(session) != zoomed }, "l moves the picture, not to the next file")
        session.type("-")
        #expect(session.waitFor { !$0.contains("zoom 2×") && $0.contains("landscape.jpg") })
        session.send("q")
    }
}
