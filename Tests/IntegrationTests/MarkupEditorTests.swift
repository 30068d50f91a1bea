import Foundation
import Testing

/// Quick Look's Markup driven through tmux as a person would: `e` then `m`, a mark drawn by a
/// mouse drag (SGR reports typed into the pane as a terminal sends them), saved as a copy; then
/// checked by other programs — qpdf reads the annotation back on the page it was drawn on, where
/// it was drawn; ImageMagick finds a photo's pixels changed only around the mark.
@Suite(.serialized) struct MarkupEditorTests {
    private let folder = MarkupFolder()

    /// A mouse report as xterm's SGR encoding writes it (1-based cells): button 0 pressed (`M`),
    /// moved with it held (32), released (`m`).
    private func mouse(_ session: TmuxSession, _ code: Int, row: Int, column: Int, release: Bool = false) {
        session.type("\u{1b}[<\(code);\(column + 1);\(row + 1)\(release ? "m" : "M")")
        Thread.sleep(forTimeInterval: 0.2)
    }

    private func drag(_ session: TmuxSession, from start: (row: Int, column: Int), to end: (row: Int, column: Int)) {
        mouse(session, 0, row: start.row, column: start.column)
        mouse(session, 32, row: (start.row + end.row) / 2, column: (start.column + end.column) / 2)
        mouse(session, 0, row: end.row, column: end.column, release: true)
    }

    /// "at X,Y, W×H pt" (or px) of the message a new mark leaves.
    private func added(_ screen: String) -> [Double]? {
        guard let range = screen.range(of: #"at -?\d+,-?\d+, \d+×\d+ p[tx]"#, options: .regularExpression) else { return nil }
        let numbers = screen[range].dropFirst(3).split(whereSeparator: { ",× ".contains($0) }).compactMap { Double($0) }
        return numbers.count == 4 ? numbers : nil
    }

    private func start(_ name: String) throws -> TmuxSession {
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(folder.url.path)'", columns: 120, rows: 35,
                                      environment: ["XDG_DATA_HOME": folder.dataHome])
        #expect(session.waitFor { $0.contains("sort:name") && !$0.contains("reading…") }, "the browser did not start:\n\(session.screen())")
        session.send("Space")
        return session
    }

    @Test func aRectangleDraggedOnPage2IsASquareAnnotationThereAndTheTextStays() throws {
        defer { folder.remove() }
        let pdf = try folder.copy("doc.pdf")
        let text = folder.tool(["pdftotext", pdf, "-"])
        let session = try start("doc.pdf")
        #expect(session.waitFor(20) { $0.contains("e edit") && $0.contains("page 1/2") }, "\(session.screen())")
        session.send("PageDown")
        #expect(session.waitFor(20) { $0.contains("page 2/2") && $0.contains("▅▅▅▅▅▅") }, "\(session.screen())")
        session.type("e")
        #expect(session.waitFor { $0.contains("m markup") }, "\(session.screen())")
        session.type("m")
        #expect(session.waitFor { $0.contains("[1 rectangle]") && $0.contains("editing: 0 marks") }, "\(session.screen())")

        // The page's place on the screen, from its two red bands: the top one spans x 54–558
        // and y 54–180 points of the 612×792 page, the bottom one ends 702 points down.
        let lines = session.lines().map { Array($0) }
        let top = try #require(lines.firstIndex { String($0).contains("▆▆▆▆▆▆") }, "\(session.screen())")
        let bottom = try #require(lines.lastIndex { String($0).contains("▅▅▅▅▅▅") }, "\(session.screen())")
        let left = try #require(lines[top].firstIndex { $0 != " " }), right = try #require(lines[top].lastIndex { $0 != " " })
        let pointsPerColumn = 504 / Double(right + 1 - left), pointsPerRow = 648 / Double(bottom + 1 - top)
        func shown(row: Int, column: Int) -> (x: Double, y: Double) {
            (54 + (Double(column - left) + 0.5) * pointsPerColumn, 54 + (Double(row - top) + 0.5) * pointsPerRow)
        }
        let from = (row: top + 12, column: left + 8), to = (row: top + 20, column: left + 30)
        drag(session, from: from, to: to)
        #expect(session.waitFor(5) { $0.contains("added a red rectangle on page 2") && $0.contains("editing: 1 mark") }, "\(session.screen())")
        let box = try #require(added(session.screen()), "\(session.screen())")
        let (start, end) = (shown(row: from.row, column: from.column), shown(row: to.row, column: to.column))
        // Where it was drawn, within a cell's size (and a half: the bands' edges fall inside cells).
        #expect(abs(box[0] - start.x) <= 1.5 * pointsPerColumn && abs(box[1] - start.y) <= 1.5 * pointsPerRow, "\(box) from \(start)")
        #expect(abs(box[0] + box[2] - end.x) <= 1.5 * pointsPerColumn && abs(box[1] + box[3] - end.y) <= 1.5 * pointsPerRow, "\(box) to \(end)")

        session.send("Enter")
        #expect(session.waitFor { $0.contains("save: r replace the original") }, "\(session.screen())")
        session.type("c")
        #expect(session.waitFor(30) { $0.contains("saved as doc (edited).pdf") }, "\(session.screen())")
        session.send("q")
        let copy = folder.path("doc (edited).pdf")
        #expect(folder.annotations(pdf, page: 1).isEmpty, "the original is as it was")
        #expect(folder.annotations(copy, page: 0).isEmpty, "nothing on page 1")
        let annotations = folder.annotations(copy, page: 1)
        #expect(annotations.map { $0["/Subtype"] as? String ?? "" } == ["/Square"], "\(annotations)")
        // In user space, y up from the bottom of the 792-point page; the message rounds to whole points.
        let rect = try #require(annotations.first?["/Rect"] as? [Double], "\(annotations)")
        let expected = [box[0], 792 - box[1] - box[3], box[0] + box[2], 792 - box[1]]
        #expect(zip(rect, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(rect) for \(expected)")
        #expect(folder.tool(["pdftotext", copy, "-"]) == text, "the pages' text is still text")
    }

    @Test func anEllipseOnAPhotoChangesThePixelsOnlyAroundItsBox() throws {
        defer { folder.remove() }
        let photo = folder.path("photo.png")
        _ = folder.tool(["convert", TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path, photo])
        let session = try start("photo.png")
        #expect(session.waitFor(20) { $0.contains("e edit") && $0.contains("dimensions 640×480") }, "\(session.screen())")
        session.type("e")
        session.type("m")
        #expect(session.waitFor { $0.contains("[1 rectangle]") }, "\(session.screen())")
        session.type("2")
        #expect(session.waitFor { $0.contains("[2 ellipse]") }, "\(session.screen())")
        // The picture's cells: every row but the header and the bottom lines where something is drawn.
        Thread.sleep(forTimeInterval: 1)
        let lines = session.lines().map { Array($0) }
        let rows = lines.indices.filter { $0 >= 1 && $0 < lines.count - 4 && lines[$0].contains { $0 != " " } }
        let (top, bottom) = (try #require(rows.first), try #require(rows.last))
        let left = rows.compactMap { lines[$0].firstIndex { $0 != " " } }.min()!, right = rows.compactMap { lines[$0].lastIndex { $0 != " " } }.max()!
        let from = (row: top + (bottom - top) / 4, column: left + (right - left) / 4), to = (row: top + (bottom - top) / 2, column: left + (right - left) / 2)
        drag(session, from: from, to: to)
        #expect(session.waitFor(5) { $0.contains("added a red ellipse at") }, "\(session.screen())")
        let box = try #require(added(session.screen()), "\(session.screen())")
        let (pixelsPerColumn, pixelsPerRow) = (640 / Double(right + 1 - left), 480 / Double(bottom + 1 - top))
        #expect(abs(box[0] - (Double(from.column - left) + 0.5) * pixelsPerColumn) <= pixelsPerColumn, "\(box)")
        #expect(abs(box[1] + box[3] - (Double(to.row - top) + 0.5) * pixelsPerRow) <= pixelsPerRow, "\(box)")
        session.send("Enter")
        #expect(session.waitFor { $0.contains("save: r replace the original") }, "\(session.screen())")
        session.type("c")
        #expect(session.waitFor(30) { $0.contains("saved as photo (edited).png") }, "\(session.screen())")
        session.send("q")

        // Pixels that differ at all, inside the box widened by two pixels and outside it.
        let copy = folder.path("photo (edited).png")
        func changed(_ draw: [String]) -> Int {
            Int(folder.tool(["convert", photo, copy, "-compose", "difference", "-composite", "-alpha", "off", "-colorspace", "gray",
                             "-threshold", "0"] + draw + ["-format", "%[fx:round(mean*w*h)]", "info:"])) ?? -1
        }
        let (x0, y0, x1, y1) = (Int(box[0]) - 2, Int(box[1]) - 2, Int(box[0] + box[2]) + 2, Int(box[1] + box[3]) + 2)
        #expect(changed(["-fill", "black", "-draw", "rectangle \(x0),\(y0) \(x1),\(y1)"]) == 0, "nothing changed away from the ellipse")
        let inside = changed(["-crop", "\(x1 - x0)x\(y1 - y0)+\(x0)+\(y0)", "+repage"])
        #expect(inside > Int(box[2] + box[3]), "the ellipse's outline is drawn: \(inside) pixels")
    }
}
