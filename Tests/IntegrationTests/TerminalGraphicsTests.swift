import Foundation
import Testing

/// Pictures as the terminal receives them: the bytes written to a pseudo-terminal.
@Suite(.serialized) struct TerminalGraphicsTests {
    struct Capture {
        let bytes: [UInt8]
        let marks: [Int]

        /// The bytes written after step `index` of the script.
        func after(_ index: Int) -> [UInt8] { Array(bytes[marks[index]...]) }
    }

    private func capture(_ folder: URL, graphics: String, script: String, columns: Int = 100, rows: Int = 30) throws -> Capture {
        let out = TestEnvironment.temporaryFolder("qlbrowse-pty").appendingPathComponent("out.bin")
        let result = TestEnvironment.run("/usr/bin/python3", [TestEnvironment.root.appendingPathComponent("Tests/Support/pty-run.py").path,
                                                              out.path, String(columns), String(rows), script, "--",
                                                              TestEnvironment.qlbrowse, "--graphics", graphics, folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8]((try? Data(contentsOf: out)) ?? Data())
        let marks = ((try? String(contentsOf: URL(fileURLWithPath: out.path + ".marks"), encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int($0) }
        return Capture(bytes: bytes, marks: marks)
    }

    private func folderOfPictures() throws -> URL {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-pictures")
        for name in ["landscape.jpg", "image.webp", "clip.mp4", "doc.pdf"] {
            try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return folder
    }

    /// Where each sixel starts: the cursor position written just before its `ESC P … q`.
    private func sixelPositions(_ bytes: [UInt8]) -> [(row: Int, column: Int)] {
        let text = String(decoding: bytes, as: UTF8.self)
        var positions: [(Int, Int)] = []
        var search = text.startIndex
        while let range = text.range(of: "\u{1B}7\u{1B}[", range: search..<text.endIndex) {
            let rest = text[range.upperBound...]
            if let h = rest.firstIndex(of: "H") {
                let numbers = rest[..<h].split(separator: ";").compactMap { Int($0) }
                let after = rest[rest.index(after: h)...]
                if numbers.count == 2 && after.hasPrefix("\u{1B}P") { positions.append((numbers[0], numbers[1])) }
            }
            search = range.upperBound
        }
        return positions
    }

    @Test func sixelPicturesAreWrittenAtThePreviewPaneAndRedrawnWhenTheSelectionMoves() throws {
        let folder = try folderOfPictures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try capture(folder, graphics: "sixel", script: "until:60:\\x1bP;keys:j;wait:2;keys:q")
        let first = sixelPositions(Array(run.bytes[..<run.marks[1]]))
        #expect(!first.isEmpty, "no sixel was written")
        // The preview pane starts after the list (45 % of 100 columns) and the border.
        #expect(first.allSatisfy { $0.column >= 47 && $0.row >= 2 }, "\(first)")
        // Each sixel is complete: DCS … ST.
        let text = String(decoding: run.bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "\u{1B}P").count == text.components(separatedBy: "\u{1B}\\").count)
        let afterMove = sixelPositions(run.after(1))
        #expect(!afterMove.isEmpty, "moving the selection draws the next file's picture")
    }

    @Test func kittyPicturesAreSentOnceAndMovedByID() throws {
        let folder = try folderOfPictures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try capture(folder, graphics: "kitty", script: "until:60:a=p;keys:j;wait:2;keys:k;wait:1.5;keys:q")
        let text = String(decoding: run.bytes, as: UTF8.self)
        #expect(text.contains("\u{1B}_Ga=t,f=100"), "pictures are transmitted as PNG")
        let afterMove = String(decoding: run.after(2), as: UTF8.self)
        #expect(afterMove.contains("\u{1B}_Ga=d,d=i,i="), "the old picture's placement is deleted by id")
        // Back to the first file: its picture is placed again, not sent again.
        let back = String(decoding: Array(run.bytes[run.marks[3]..<run.marks[5]]), as: UTF8.self)
        #expect(back.contains("\u{1B}_Ga=p,i="), "the first picture is placed again")
        // No image id is ever transmitted twice (a better representation arriving is a new image).
        let transmitted = text.split(separator: "\u{1B}").filter { $0.hasPrefix("_Ga=t,") }.map { $0.split(separator: ",").first { $0.hasPrefix("i=") } }
        #expect(Set(transmitted).count == transmitted.count, "\(transmitted)")
        // Quitting frees what the terminal holds, each command whole.
        let quit = String(decoding: run.after(5), as: UTF8.self)
        #expect(quit.contains("a=d,d=I,i="))
        #expect(text.components(separatedBy: "\u{1B}_G").count == text.components(separatedBy: "\u{1B}\\").count)
    }

    /// Plays `bytes` through kitty 0.26's rules for what it holds, and returns each placement
    /// (`a=p`) of an id the terminal does not hold at that moment. kitty frees an image's data on
    /// an uppercase delete and on a screen clear (`ESC [ 2 J`, `ESC [ 3 J`), and then not only the
    /// ones named: every image left without a placement (graphics.c, filter_refs). A lowercase
    /// delete takes placements down and keeps the data of an image the client gave an id.
    static func kittyPlacementsOfDroppedIDs(_ bytes: [UInt8]) -> [String] {
        var held: Set<String> = []
        var placed: Set<String> = []
        var dropped: [String] = []
        func freeUnplaced() { held = held.intersection(placed) }
        var index = 0
        while index + 2 < bytes.count {
            guard bytes[index] == 0x1B else { index += 1; continue }
            if bytes[index + 1] == UInt8(ascii: "["), index + 3 < bytes.count, bytes[index + 3] == UInt8(ascii: "J"),
               bytes[index + 2] == UInt8(ascii: "2") || bytes[index + 2] == UInt8(ascii: "3") {
                placed.removeAll()
                freeUnplaced()
                index += 4
                continue
            }
            guard bytes[index + 1] == UInt8(ascii: "_"), bytes[index + 2] == UInt8(ascii: "G") else { index += 1; continue }
            var end = index + 3
            while end + 1 < bytes.count && !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
            let body = String(decoding: bytes[(index + 3)..<end], as: UTF8.self)
            index = end + 2
            let keys = Dictionary(body.prefix { $0 != ";" }.split(separator: ",").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }, uniquingKeysWith: { _, last in last })
            let id = keys["i"] ?? ""
            switch keys["a"] {
            case "t", "T": held.insert(id)
            case "p":
                if !held.contains(id) { dropped.append(id) }
                placed.insert(id)
            case "d":
                switch keys["d"] ?? "a" {
                case "i": placed.remove(id)
                case "I": placed.remove(id); freeUnplaced()
                case "a": placed.removeAll()
                case "A": placed.removeAll(); freeUnplaced()
                default: break
                }
            default: break  // a continuation chunk (m=…) belongs to the transmission before it
            }
        }
        return dropped
    }

    /// Issue 23: in kitty every picture was gone after the first Quick Look. Opening and closing
    /// it clears the screen, which in kitty frees every picture not placed, and the browser placed
    /// them again by id as if kitty still held them.
    @Test func kittyPlacesOnlyPicturesTheTerminalHoldsAcrossQuickLook() throws {
        let folder = try folderOfPictures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try capture(folder, graphics: "kitty",
                              script: "until:60:a=p;keys:jj;wait:2;keys: ;wait:3;keys:\\x1b;wait:3;keys:k;wait:2;keys: ;wait:3;keys:\\x1b;wait:3;keys:j;wait:2;keys:\\x0c;wait:2;keys:q")
        let text = String(decoding: run.bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "\u{1B}_Ga=p,").count > 6, "pictures were placed before, in and after Quick Look")
        let dropped = Self.kittyPlacementsOfDroppedIDs(run.bytes)
        #expect(dropped.isEmpty, "placed after kitty dropped them: \(dropped)")
        // The picture shown before Quick Look is shown after it (sent again, since the clear freed it).
        let after = String(decoding: Array(run.bytes[run.marks[5]..<run.marks[7]]), as: UTF8.self)
        #expect(after.contains("\u{1B}_Ga=p,"), "the preview is placed again after Quick Look closes")
    }

    @Test func symbolsAreColouredCellsWithNoGraphicsEscapes() throws {
        let folder = try folderOfPictures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try capture(folder, graphics: "symbols", script: "until:60:240 from;wait:1;keys:q")
        let text = String(decoding: run.bytes, as: UTF8.self)
        #expect(!text.contains("\u{1B}P") && !text.contains("\u{1B}_G"))
        // Many colours, not one: each cell carries its own (Tests/Support/pictures.py checks them against the picture).
        let colours = Set(text.split(separator: "\u{1B}").filter { $0.hasPrefix("[0;") }.map { $0.prefix(while: { $0 != "m" }) })
        #expect(colours.count > 20, "\(colours.count) distinct cell colours")
    }

    @Test func picturesLookLikeThePictureOnEveryKindOfTerminal() throws {
        // Block art in 8/16/256/truecolor and in tmux, kitty ids, placeholders and sixel through
        // tmux, TERM fallback, 80x24: Tests/Support/pictures.py reads a terminal emulator's screen.
        let result = TestEnvironment.runScenario("pictures.py", folder: "qlbrowse-pictures")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 22, "\(result.stdout)")
    }

    /// Issue 23: on a white background sizes, dates and hints were yellow or light grey. The
    /// terminal is asked its colours (OSC 10/11; pyte answers black on white here) and the light
    /// theme is used: >= 95 % of the text cells of list, grid, help, filter and Quick Look at 3:1
    /// or more; `theme =` in config.toml still wins (Tests/Support/light-background.py).
    @Test func textIsReadableOnALightBackground() throws {
        let result = TestEnvironment.runScenario("light-background.py", folder: "qlbrowse-light")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 6, "\(result.stdout)")
    }

    /// Issue 23: with sixel, typing in the filter left cut copies of pictures: ncurses scrolled
    /// the list's lines with a scroll region and xterm moved the preview picture up with them,
    /// above the rows repainted to take it down. Replayed in pyte with sixels as marker cells
    /// that scroll and erase as xterm's pixels do: after every screen change (filter typed,
    /// cleared, kept; grid; help over it; list again; Quick Look) each marker cell belongs to
    /// a whole picture, and none shows under help (Tests/Support/ghosts.py).
    @Test func sixelLeavesNoPictureBehindAScreenChange() throws {
        let result = TestEnvironment.runScenario("ghosts.py", folder: "qlbrowse-ghosts")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 19, "\(result.stdout)")
    }

    /// Issue 23: inside tmux, the sixels reach the terminal through the passthrough and tmux sends
    /// on only cells that change in its grid: help over the grid left the top row of pictures
    /// showing above the help box (foot). The bytes tmux sends are replayed (ghosts.py --tmux,
    /// 160 columns, where help leaves rows uncovered): every picture given up is erased.
    @Test func sixelInsideTmuxLeavesNoPictureBehindAScreenChange() throws {
        let result = TestEnvironment.runScenario("ghosts.py", folder: "qlbrowse-ghosts-tmux", arguments: ["--tmux"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 19, "\(result.stdout)")
    }

    /// Issue 23: a video playing in a sixel terminal flickered: each frame's cells were blanked
    /// (repainted by ncurses) before the next frame was drawn. Replayed in pyte, every frame is
    /// drawn over the one before (Tests/Support/video-flicker.py; before the fix 38 of 38 frames
    /// landed on blanked cells).
    @Test func aPlayingVideoIsDrawnFrameOverFrame() throws {
        let result = TestEnvironment.runScenario("video-flicker.py", folder: "qlbrowse-flicker")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 3, "\(result.stdout)")
    }

    /// Issue 23: inside tmux (pane TERM `screen`, 8 colours) block art came out almost grey.
    /// A mid-tone picture through a real tmux, read off the outer terminal (pyte): with RGB on
    /// the outer terminal within 1.5x the colour error of truecolor outside tmux, without it
    /// within 1.5x of 256 colours outside (8 colours, as before, measure 3.3x that).
    /// Tests/Support/colour-depth.py prints chafa's own error beside them, and at 256 colours ours
    /// (error diffusion) must be no worse than chafa's command line (31 before, 21 with diffusion).
    @Test func blockArtThroughTmuxKeepsItsColours() throws {
        let result = TestEnvironment.runScenario("colour-depth.py", folder: "qlbrowse-colours")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(TestEnvironment.passes(result.stdout) == 3, "\(result.stdout)")
    }

    @Test func quittingLeavesTheAlternateScreenAndShowsTheCursor() throws {
        let folder = try folderOfPictures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try capture(folder, graphics: "none", script: "wait:2;keys:q;wait:1")
        let tail = String(decoding: run.after(1), as: UTF8.self)
        #expect(tail.contains("\u{1B}[?1049l"), "the alternate screen is left")
        #expect(tail.contains("\u{1B}[?12l\u{1B}[?25h") || tail.contains("\u{1B}[?25h"), "the cursor is shown again")
    }
}
