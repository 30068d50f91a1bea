import Foundation
import Testing

/// Bulk rename in `$EDITOR` and undo through tmux, as a person uses them: a swap is planned,
/// shown and done, `z` takes it back; a clash is refused before anything moves; a move to another
/// volume is undone, and an undo over a file changed since refuses with the reason.
@Suite(.serialized) struct BrowserUndoTests {
    private func editor(_ folder: URL, _ sed: String) throws -> String {
        let script = folder.appendingPathComponent("edit-\(UUID().uuidString.prefix(6)).sh")
        try TestEnvironment.writeFile("#!/bin/sh\nsed -i '\(sed)' \"$1\"\n", to: script.path)
        return script.path
    }

    private func read(_ url: URL) -> String? { (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } }

    @Test func aBulkRenameSwapIsPlannedDoneAndUndoneAndAClashIsRefused() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-bulk")
        let tools = TestEnvironment.temporaryFolder("qlbrowse-bulk-tools")
        defer { try? FileManager.default.removeItem(at: folder); try? FileManager.default.removeItem(at: tools) }
        for name in ["a", "b", "c"] { try Data(name.uppercased().utf8).write(to: folder.appendingPathComponent("\(name).txt")) }
        let swap = try editor(tools, "1{h;d};2{G}")
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics none '\(folder.path)'", columns: 120, rows: 30,
                                      environment: ["EDITOR": swap, "XDG_STATE_HOME": tools.appendingPathComponent("state").path,
                                                    "XDG_DATA_HOME": tools.appendingPathComponent("data").path])
        #expect(session.waitFor { $0.contains("c.txt") && $0.contains("sort:name") }, "\(session.screen())")
        session.type("R")
        #expect(session.waitFor { $0.contains("Rename 2?") && $0.contains("a.txt") && $0.contains("→  b.txt") }, "the plan is shown:\n\(session.screen())")
        #expect(read(folder.appendingPathComponent("a.txt")) == "A", "nothing moves before Enter")
        session.send("Enter")
        #expect(session.waitFor { $0.contains("renamed 2 (z undoes)") }, "\(session.screen())")
        #expect(read(folder.appendingPathComponent("a.txt")) == "B" && read(folder.appendingPathComponent("b.txt")) == "A")
        session.type("z")
        #expect(session.waitFor { $0.contains("undone: the renaming of 2 names") }, "\(session.screen())")
        #expect(read(folder.appendingPathComponent("a.txt")) == "A" && read(folder.appendingPathComponent("b.txt")) == "B")
        session.type("q")
        #expect(session.waitFor { $0.contains("EXITED:0") })

        // c.txt renamed to a.txt, which stays: refused, named.
        let clash = try editor(tools, "3s/.*/a.txt/")
        let second = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics none '\(folder.path)'", columns: 120, rows: 30,
                                     environment: ["EDITOR": clash, "XDG_STATE_HOME": tools.appendingPathComponent("state").path])
        #expect(second.waitFor { $0.contains("c.txt") && $0.contains("sort:name") })
        second.type("R")
        #expect(second.waitFor { $0.contains("Nothing renamed") && $0.contains("a.txt and c.txt would both be named \"a.txt\"") }, "\(second.screen())")
        second.send("Escape")
        #expect(second.waitFor { $0.contains("nothing renamed") })
        #expect(read(folder.appendingPathComponent("c.txt")) == "C")
        second.type("q")
    }

    @Test func aMoveToAnotherVolumeIsUndoneAndAChangedFileIsNot() throws {
        guard FileManager.default.isWritableFile(atPath: "/dev/shm") else { return }
        let folder = TestEnvironment.temporaryFolder("qlbrowse-undo")
        let elsewhere = URL(fileURLWithPath: "/dev/shm/qlbrowse-undo-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder); try? FileManager.default.removeItem(at: elsewhere) }
        try Data("photo".utf8).write(to: folder.appendingPathComponent("a-photo.jpg"))
        try Data("keep".utf8).write(to: folder.appendingPathComponent("b-notes.txt"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("z-memory").path, withDestinationPath: elsewhere.path)
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics none '\(folder.path)'", columns: 120, rows: 30,
                                      environment: ["XDG_STATE_HOME": folder.appendingPathComponent(".state").path,
                                                    "XDG_DATA_HOME": folder.appendingPathComponent(".data").path])
        #expect(session.waitFor { $0.contains("a-photo.jpg") && $0.contains("sort:name") }, "\(session.screen())")
        // z-memory/ comes first (folders first): the photo is the second row.
        session.type("j")
        session.type("x")
        session.type("g")
        session.send("Enter")
        #expect(session.waitFor { $0.contains("z-memory") && $0.contains("0 folders, 0 files") }, "\(session.screen())")
        session.type("p")
        #expect(session.waitFor(20) { $0.contains("a-photo.jpg") && $0.contains("1 files") }, "moved to the other volume:\n\(session.screen())")
        #expect(read(elsewhere.appendingPathComponent("a-photo.jpg")) == "photo" && read(folder.appendingPathComponent("a-photo.jpg")) == nil)
        session.type("z")
        #expect(session.waitFor(20) { $0.contains("undone: the move of a-photo.jpg") }, "\(session.screen())")
        #expect(read(folder.appendingPathComponent("a-photo.jpg")) == "photo" && read(elsewhere.appendingPathComponent("a-photo.jpg")) == nil)
        // Done again, then changed by someone: the undo refuses and says why.
        session.type("Z")
        #expect(session.waitFor(20) { $0.contains("redone: the move of a-photo.jpg") }, "\(session.screen())")
        let handle = try #require(FileHandle(forWritingAtPath: elsewhere.appendingPathComponent("a-photo.jpg").path))
        handle.seekToEndOfFile()
        handle.write(Data(" retouched".utf8))
        handle.closeFile()
        session.type("z")
        #expect(session.waitFor { $0.contains("cannot undo the move of a-photo.jpg to z-memory: a-photo.jpg changed since") }, "\(session.screen())")
        #expect(read(elsewhere.appendingPathComponent("a-photo.jpg")) == "photo retouched")
        session.type("q")
    }
}
