import Testing
@testable import BrowserCore
@testable import FileSystemKit

/// `F` as the state runs it: the query goes to the finder, late reports of a closed search are
/// dropped, Enter goes to the match's folder with the cursor on it.
@Suite struct FindTests {
    private func report(_ best: [String], query: String, complete: Bool = true) -> FileFinder.Report {
        FileFinder.Report(query: query, best: best, matched: best.count, walked: 1000, complete: complete, unreadable: 0, fresh: [])
    }

    @Test func typingSearchesAndEnterGoesToTheMatch() {
        var state = BrowserState(folder: "/home/me", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.apply(.listed(ticket: state.ticket, entries: EntryStore([Entry(name: "a.jpg")]), complete: true))
        let started = state.apply(.key(.character(UInt32(UInt8(ascii: "F"))), .places(.find)))
        let ticket = state.find!.ticket
        #expect(started == [.find(root: "/home/me", showsHidden: false, ticket: ticket)] && state.mode == .finding)
        #expect(state.apply(.key(.character(UInt32(UInt8(ascii: "q"))), .screen(.quit))) == [.findQuery("q", insideFiles: false, ticket: ticket)], "q is typed, it does not quit")
        state.apply(.key(.character(UInt32(UInt8(ascii: "x"))), .files(.cut)))
        state.apply(.key(.character(127), .move(.parent)))
        #expect(state.find?.query == "q")
        state.apply(.found(ticket: ticket, report(["x/quarry.txt", "a/b/c/d/quote.jpg"], query: "q")))
        state.apply(.key(.special(.down), .move(.down)))
        state.apply(.key(.special(.down), .move(.down)))
        #expect(state.find?.cursor == 1, "not past the last match")
        let went = state.apply(.key(.character(13), .move(.open)))
        #expect(went == [.stopFind, .list(folder: "/home/me/a/b/c/d", ticket: state.ticket)])
        #expect(state.mode == .browsing && state.find == nil)
        state.apply(.listed(ticket: state.ticket, entries: EntryStore([Entry(name: "other.txt"), Entry(name: "quote.jpg")]), complete: true))
        #expect(state.selected?.name == "quote.jpg")
    }

    @Test func tabLooksInsideTheFilesAndBack() {
        var state = BrowserState(folder: "/home/me", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.apply(.find(.start))
        let ticket = state.find!.ticket
        state.apply(.find(.input("todo")))
        #expect(state.apply(.key(.character(9), .files(.mark))) == [.findQuery("todo", insideFiles: true, ticket: ticket)], "Tab, not a mark")
        #expect(state.find?.insideFiles == true && state.find?.report == nil)
        state.apply(.found(ticket: ticket, report(["notes/plan.md"], query: "todo")))
        #expect(state.find?.chosen == "/home/me/notes/plan.md")
        #expect(state.apply(.find(.toggleInside)) == [.findQuery("todo", insideFiles: false, ticket: ticket)])
    }

    @Test func escStopsTheWalkAndLateReportsAreDropped() {
        var state = BrowserState(folder: "/home/me", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.apply(.find(.start))
        let ticket = state.find!.ticket
        #expect(state.apply(.key(.escape, nil)) == [.stopFind] && state.mode == .browsing)
        state.apply(.found(ticket: ticket, report(["late.txt"], query: "")))
        #expect(state.find == nil && state.mode == .browsing)
        state.apply(.find(.start))
        state.apply(.found(ticket: ticket, report(["old.txt"], query: "")))
        #expect(state.find?.report == nil, "a report of the search before is not this one's")
    }

    /// A remote tab's top (`ssh://nas/`) ends in its slash as `/` does: the match goes under it
    /// once, not after a second slash; below it, as anywhere.
    @Test func aMatchInARemoteTabIsUnderItsFolder() {
        for (root, expected) in [("ssh://nas/", "ssh://nas/a/b.txt"), ("ssh://nas/srv", "ssh://nas/srv/a/b.txt"), ("/", "/a/b.txt")] {
            var state = BrowserState(folder: root, layout: ScreenLayout(rows: 24, columns: 100))
            _ = state.start()
            state.apply(.find(.start))
            state.apply(.found(ticket: state.find!.ticket, report(["a/b.txt"], query: "b")))
            #expect(state.find?.chosen == expected)
        }
    }
}

/// `R` and `z` as the state decides them: the names edited become a checked plan, shown; Enter
/// does it; a refused plan renames nothing; undo and redo go to the shell.
@Suite struct BulkRenameStateTests {
    @Test func editedNamesBecomeACheckedPlanAndEnterDoesIt() {
        var state = BrowserState(folder: "/d", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.apply(.listed(ticket: state.ticket, entries: EntryStore(["a.txt", "b.txt", ".hidden"].map { Entry(name: $0) }), complete: true))
        #expect(state.apply(.key(.character(UInt32(UInt8(ascii: "R"))), .files(.bulkRename))) == [.editNames(folder: "/d", names: ["a.txt", "b.txt"])],
                "every name shown, hidden ones not")
        state.apply(.namesEdited(folder: "/d", names: ["a.txt", "b.txt"], edited: nil))
        #expect(state.message == "the editor did not save the list: nothing renamed" && state.overlay == nil)
        state.apply(.namesEdited(folder: "/d", names: ["a.txt", "b.txt"], edited: ["a.txt", ".hidden"]))
        guard case .bulkRenamePlan(_, let refused)? = state.overlay else { Issue.record("no plan shown"); return }
        #expect(refused.problems == ["\".hidden\" is already in the folder (it is not in the list)"])
        #expect(state.apply(.key(.character(13), .move(.open))).isEmpty && state.overlay == nil, "Enter on a refused plan only closes it")
        state.apply(.namesEdited(folder: "/d", names: ["a.txt", "b.txt"], edited: ["b.txt", "a.txt"]))
        #expect(state.apply(.key(.character(13), .move(.open))) == [.applyBulkRename(folder: "/d", [.init(from: "a.txt", to: "b.txt"), .init(from: "b.txt", to: "a.txt")])])
        #expect(state.apply(.key(.character(UInt32(UInt8(ascii: "z"))), .files(.undo))) == [.undo])
        #expect(state.apply(.key(.character(UInt32(UInt8(ascii: "Z"))), .files(.redo))) == [.redo])
    }
}
