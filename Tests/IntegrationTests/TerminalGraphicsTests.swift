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
        let run = try capture(folder, graphics: "sixel", script: "until:60:\\x1bP;keys:j;until:60:\\x1bP;keys:q")
        let first = sixelPositions(Array(run.bytes[..<run.marks[1]]))
        #expect(!first.isEmpty, "no sixel was written")
        // The preview pane starts after the list (45 % of 100 columns) and the border.
        #expect(first.allSatisfy { $0.column >= 47 && $0.row >= 2 }, "\(first)")
        // Each sixel is complete: DCS … ST.
        let text = String(decoding: run.bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "\u{1B}P").count == text.components(separatedBy: "\u{1B}\\").count)
        let afterMove = sixelPositions(run.after(2))
        #expect(!afterMove.isEmpty, "moving the selection draws the next file's picture")
    }

    @Test func kittyPicturesAreDeletedBeforeOthersAreDrawn() throws {
        let folder = try folderOfPictures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try capture(folder, graphics: "kitty", script: "until:60:\\x1b_G;keys:j;until:60:a=d,d=a;wait:1;keys:q")
        let text = String(decoding: run.bytes, as: UTF8.self)
        #expect(text.contains("\u{1B}_G"), "kitty graphics sequences are written")
        let afterMove = String(decoding: run.after(2), as: UTF8.self)
        #expect(afterMove.contains("\u{1B}_Ga=d,d=a\u{1B}\\"), "the old picture is deleted")
        if let delete = afterMove.range(of: "\u{1B}_Ga=d,d=a\u{1B}\\"), let draw = afterMove.range(of: "\u{1B}_Gf=", options: .backwards) {
            #expect(delete.lowerBound < draw.lowerBound)
        }
    }

    @Test func symbolsModeWritesNoGraphicsEscapes() throws {
        let folder = try folderOfPictures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try capture(folder, graphics: "symbols", script: "until:60:from vips;wait:0.5;keys:q")
        let text = String(decoding: run.bytes, as: UTF8.self)
        #expect(!text.contains("\u{1B}P") && !text.contains("\u{1B}_G"))
        let blocks = text.unicodeScalars.filter { (0x2580...0x259F).contains($0.value) }.count
        #expect(blocks > 50, "block characters draw the picture (\(blocks) found)")
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
