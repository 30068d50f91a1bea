import Foundation
import Testing

/// Quick Look's edits driven through tmux as a person would: the picture turns before anything
/// is written, a copy leaves the original's bytes alone, a replacement keeps the original in the
/// Trash, and `U` brings it back.
@Suite(.serialized) struct QuickEditTests {
    /// The columns the picture covers on its widest row: a landscape photo turned upright is narrower.
    private func pictureWidth(_ session: TmuxSession) -> Int {
        let rows = session.screen().split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast(3)
        return rows.map { row -> Int in
            let cells = Array(row)
            guard let first = cells.firstIndex(where: { $0 != " " }), let last = cells.lastIndex(where: { $0 != " " }) else { return 0 }
            return last - first + 1
        }.max() ?? 0
    }

    @Test func aPhotoTurnsOnScreenThenSavesAsACopyOrInPlaceAndComesBack() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-quickedit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("landscape.jpg")
        try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent("landscape.jpg"), to: photo)
        try Data("a note".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let original = try Data(contentsOf: photo)
        let dataHome = folder.appendingPathComponent("data")
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(folder.path)'", columns: 120, rows: 35,
                                      environment: ["XDG_DATA_HOME": dataHome.path])
        #expect(session.waitFor { $0.contains("sort:name") && !$0.contains("reading…") }, "the browser did not start:\n\(session.screen())")
        session.send("Space")
        #expect(session.waitFor(20) { $0.contains("e edit") && $0.contains("from libjpeg") }, "\(session.screen())")
        #expect(session.waitFor(10) { _ in self.pictureWidth(session) > 60 }, "the landscape photo is drawn wide:\n\(session.screen())")
        let wide = pictureWidth(session)

        session.type("e")
        #expect(session.waitFor { $0.contains("r/l turn right/left") && $0.contains("editing: no change yet") }, "\(session.screen())")
        session.type("r")
        #expect(session.waitFor(10) { screen in screen.contains("editing: turned right") && self.pictureWidth(session) < wide * 3 / 4 },
                "turned right, the picture is drawn upright before anything is saved:\n\(session.screen())")
        #expect(try Data(contentsOf: photo) == original, "nothing is written while choosing")
        session.send("Right")
        #expect(session.waitFor { $0.contains("Enter saves the edit, Esc leaves it") && $0.contains("landscape.jpg") }, "the file stays while editing")

        session.send("Enter")
        #expect(session.waitFor { $0.contains("save: r replace the original") }, "\(session.screen())")
        session.type("c")
        #expect(session.waitFor(30) { $0.contains("saved as landscape (edited).jpg") && $0.contains("480×640") }, "\(session.screen())")
        #expect(session.waitFor { $0.contains("landscape (edited).jpg   ") }, "Quick Look shows the copy")
        #expect(try Data(contentsOf: photo) == original, "a copy leaves the original's bytes alone")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("landscape (edited).jpg").path))

        // On to the original ("landscape (edited).jpg" sorts before it): turned upside down, in place.
        session.send("Right")
        #expect(session.waitFor { $0.contains(" landscape.jpg   ") && $0.contains("e edit") }, "\(session.screen())")
        session.type("e")
        session.type("rr")
        #expect(session.waitFor { $0.contains("editing: turned upside down") }, "\(session.screen())")
        session.send("Enter")
        session.type("r")
        #expect(session.waitFor(30) { $0.contains("the original is in the Trash (U puts it back)") }, "\(session.screen())")
        let trashed = dataHome.appendingPathComponent("Trash/files/landscape.jpg")
        // Read without throwing: a miss says where things are (CI missed it once, with the message shown).
        let inTrash = try? Data(contentsOf: trashed)
        #expect(inTrash == original, """
            the original is kept whole in the Trash; the folder: \((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []), \
            the Trash: \((try? FileManager.default.subpathsOfDirectory(atPath: dataHome.appendingPathComponent("Trash").path)) ?? []), \
            /tmp/.Trash-\(getuid()): \((try? FileManager.default.contentsOfDirectory(atPath: "/tmp/.Trash-\(getuid())/files")) ?? [])
            \(session.screen())
            """)
        #expect(try Data(contentsOf: photo) != original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("qlbrowse-edit") }.isEmpty, "no temporary left")

        session.type("U")
        #expect(session.waitFor(10) { $0.contains("the original landscape.jpg is back") }, "\(session.screen())")
        #expect(try Data(contentsOf: photo) == original, "U puts the original back under its name")
        #expect(FileManager.default.fileExists(atPath: dataHome.appendingPathComponent("Trash/files/landscape.jpg.2").path)
                || FileManager.default.fileExists(atPath: dataHome.appendingPathComponent("Trash/files/landscape.jpg").path), "the edited one is in the Trash")
        session.send("q")
    }

    @Test func aVideoIsTrimmedAtThePositionBarAndQuittingMidSaveLeavesNothingBehind() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-quickedit-video")
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("long-1080p.mp4")
        try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent("long-1080p.mp4"), to: video)
        let original = try Data(contentsOf: video)
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(folder.path)'", columns: 120, rows: 35,
                                      environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path])
        #expect(session.waitFor { $0.contains("sort:name") && !$0.contains("reading…") }, "the browser did not start:\n\(session.screen())")
        session.send("Space")
        #expect(session.waitFor(20) { $0.contains("0:00 / 0:20") }, "\(session.screen())")
        session.type("e")
        session.send("Down")
        #expect(session.waitFor { $0.contains("0:05 / 0:20") }, "\(session.screen())")
        session.type("i")
        #expect(session.waitFor { $0.contains("keyframe") }, "the start's keyframe is mentioned:\n\(session.screen())")
        session.send("Down")
        session.type("o")
        #expect(session.waitFor { $0.contains("editing: 0:05.0–0:10.0 kept") && $0.contains("[") && $0.contains("]") }, "both points on the bar:\n\(session.screen())")
        session.send("Enter")
        session.type("c")
        #expect(session.waitFor(30) { $0.contains("saved as long-1080p (edited).mp4") && $0.contains("of the original") }, "\(session.screen())")
        #expect(session.waitFor(20) { $0.contains("/ 0:10") || $0.contains("/ 0:05") }, "the copy is shorter:\n\(session.screen())")
        #expect(try Data(contentsOf: video) == original)
        session.send("q")
        session.send("q")
        #expect(session.waitFor { $0.contains("EXITED:0") }, "\(session.screen())")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("qlbrowse-edit") }.isEmpty, "no temporary left")
    }
}
