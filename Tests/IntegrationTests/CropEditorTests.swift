import Foundation
import Testing

/// Quick Look's crop driven through tmux as a person would: `e` then `c`, the rectangle dragged
/// with the mouse (SGR reports typed into the pane as a terminal sends them), resized with keys,
/// saved as a copy whose size ImageMagick reads back.
@Suite(.serialized) struct CropEditorTests {
    /// The cells the picture covers (0-based rows and columns): every row but the header and
    /// the three at the bottom, where something is drawn.
    private func pictureBounds(_ session: TmuxSession) -> (top: Int, bottom: Int, left: Int, right: Int)? {
        let rows = session.lines()
        var found: (top: Int, bottom: Int, left: Int, right: Int)?
        for (index, row) in rows.enumerated() where index >= 1 && index < rows.count - 4 {
            let cells = Array(row)
            guard let first = cells.firstIndex(where: { $0 != " " }), let last = cells.lastIndex(where: { $0 != " " }) else { continue }
            found = (found?.top ?? index, index, min(found?.left ?? first, first), max(found?.right ?? last, last))
        }
        return found
    }

    /// "W×H px" at the start of the crop's footer.
    private func croppedSize(_ screen: String) -> (width: Int, height: Int)? {
        guard let footer = screen.split(separator: "\n").last(where: { $0.contains(" px, ratio ") }),
              let words = footer.split(separator: " ").first, case let sides = words.split(separator: "×"), sides.count == 2,
              let width = Int(sides[0]), let height = Int(sides[1]) else { return nil }
        return (width, height)
    }

    /// A mouse report as xterm's SGR encoding writes it (1-based cells): button 0 pressed (`M`),
    /// moved with it held (32), released (`m`).
    private func mouse(_ session: TmuxSession, _ code: Int, row: Int, column: Int, release: Bool = false) {
        session.type("\u{1b}[<\(code);\(column + 1);\(row + 1)\(release ? "m" : "M")")
        Thread.sleep(forTimeInterval: 0.2)
    }

    @Test func aRectangleDraggedAndResizedOverAJPEGIsSavedAsACopyOfThatSize() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-crop-editor")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg")
        try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent("landscape.jpg"), to: photo)
        let original = try Data(contentsOf: photo)
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(folder.path)'", columns: 120, rows: 35,
                                      environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path])
        #expect(session.waitFor { $0.contains("sort:name") && !$0.contains("reading…") }, "the browser did not start:\n\(session.screen())")
        session.send("Space")
        #expect(session.waitFor(20) { $0.contains("e edit") && $0.contains("dimensions 640×480") }, "\(session.screen())")
        session.type("e")
        #expect(session.waitFor { $0.contains("c crop") }, "\(session.screen())")
        session.type("c")
        #expect(session.waitFor { $0.contains("640×480 px, ratio free") }, "the crop starts on the whole picture:\n\(session.screen())")
        #expect(session.waitFor(10) { _ in (self.pictureBounds(session).map { $0.right - $0.left } ?? 0) > 60 }, "the picture is drawn wide:\n\(session.screen())")
        let bounds = try #require(pictureBounds(session), "\(session.screen())")

        // The bottom right corner, dragged to the picture's middle.
        let middle = (row: (bounds.top + bounds.bottom) / 2, column: (bounds.left + bounds.right) / 2)
        mouse(session, 0, row: bounds.bottom, column: bounds.right)
        mouse(session, 32, row: (bounds.bottom + middle.row) / 2, column: (bounds.right + middle.column) / 2)
        #expect(session.waitFor(5) { screen in self.croppedSize(screen).map { $0.width < 600 && $0.height < 450 } ?? false },
                "the rectangle follows the pointer before the button is released:\n\(session.screen())")
        mouse(session, 0, row: middle.row, column: middle.column, release: true)
        #expect(session.waitFor(5) { screen in self.croppedSize(screen).map { abs($0.width - 320) <= 16 && abs($0.height - 240) <= 24 } ?? false },
                "half the picture each way:\n\(session.screen())")
        let dragged = try #require(croppedSize(session.screen()))
        #expect(session.screen().contains("editing: cropped to \(dragged.width)×\(dragged.height)"))

        // Two presses apart (not held): 3 pixels each (a two-hundredth of 640), narrower then shorter.
        session.type("H")
        Thread.sleep(forTimeInterval: 0.4)
        session.type("K")
        #expect(session.waitFor(5) { screen in self.croppedSize(screen).map { $0 == (dragged.width - 3, dragged.height - 3) } ?? false },
                "\(session.screen())")
        #expect(try Data(contentsOf: photo) == original, "nothing is written while choosing")

        session.send("Enter")
        #expect(session.waitFor { $0.contains("save: r replace the original") }, "\(session.screen())")
        session.type("c")
        #expect(session.waitFor(30) { $0.contains("saved as photo (edited).jpg") }, "\(session.screen())")
        let copy = folder.appendingPathComponent("photo (edited).jpg").path
        let size = TestEnvironment.run("/usr/bin/identify", ["-format", "%wx%h", copy]).stdout
        // The rectangle starts at the top left corner, on the block grid: nothing snaps.
        #expect(size == "\(dragged.width - 3)x\(dragged.height - 3)", "the copy is the rectangle: \(size)")
        #expect(try Data(contentsOf: photo) == original, "a copy leaves the original's bytes alone")
        session.send("q")
    }
}
