import Foundation
import Testing

/// Tabs and the history through tmux, as a person uses them: each tab keeps its own cursor and
/// view, the header shows them, and H goes back where the cursor was.
@Suite(.serialized) struct BrowserTabsTests {
    @Test func tabsKeepTheirOwnCursorAndViewAndTheHeaderShowsThem() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-tabs")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["alpha.txt", "beta.txt", "gamma.txt"] { try Data(name.utf8).write(to: folder.appendingPathComponent(name)) }
        let inner = folder.appendingPathComponent("inner")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        for name in ["one.txt", "two.txt"] { try Data(name.utf8).write(to: inner.appendingPathComponent(name)) }
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(folder.path)'", columns: 120, rows: 30,
                                      environment: ["XDG_STATE_HOME": folder.appendingPathComponent(".state").path])
        #expect(session.waitFor { $0.contains("gamma.txt") && $0.contains("sort:name") }, "\(session.screen())")
        session.type("jjj")  // gamma.txt (inner/ comes first)
        #expect(session.waitFor { $0.contains("4/4 ") }, "\(session.screen())")
        session.type("t")
        #expect(session.waitFor { $0.contains("tab 2 of 2") }, "\(session.screen())")
        session.type("g")
        session.send("Enter")
        #expect(session.waitFor { $0.contains("two.txt") && $0.contains("[2 inner]") }, "the header shows both tabs:\n\(session.screen())")
        session.type("v")
        #expect(session.waitFor { !$0.contains("│") }, "tab 2 in the grid (no preview pane):\n\(session.screen())")
        session.type("1")
        #expect(session.waitFor { $0.contains("4/4 ") && $0.contains("gamma.txt") && $0.contains("2 inner") && $0.contains("│") },
                "tab 1, in the list, its cursor on gamma.txt:\n\(session.screen())")
        session.type("]")
        #expect(session.waitFor { $0.contains("[2 inner]") && $0.contains("one.txt") }, "\(session.screen())")
        session.type("H")
        #expect(session.waitFor { $0.contains("1/4 ") && $0.contains("alpha.txt") }, "H goes back, the cursor on inner/ where it was:\n\(session.screen())")
        session.type("w")
        #expect(session.waitFor { $0.contains("gamma.txt") && !$0.contains("[1 ") }, "closing tab 2 leaves one tab, no tab bar:\n\(session.screen())")
        session.type("q")
        #expect(session.waitFor { $0.contains("EXITED:0") })
    }
}
