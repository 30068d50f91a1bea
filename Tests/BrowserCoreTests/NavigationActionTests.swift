import Testing
@testable import BrowserCore
import FileSystemKit

/// The navigation feature's reducer: the cursor, the mouse, folders in and out.
@Suite struct NavigationActionTests {
    @Test func openListsTheFolderAndParentLandsOnTheFolderLeft() {
        var state = BrowserState.browsing(["a.txt"], folders: ["work"])
        #expect(state.selected?.name == "work")
        let ticket = state.ticket
        #expect(state.apply(.navigation(.open)) == [.list(folder: "/home/me/work", ticket: ticket + 1)])
        state.list(["w.txt"])
        #expect(state.apply(.navigation(.parent)) == [.list(folder: "/home/me", ticket: ticket + 2)])
        state.list(["a.txt"], folders: ["work"])
        #expect(state.selected?.name == "work" && state.history.canGoBack)
    }

    @Test func openOnAFileAsksTheShellToOpenIt() {
        var state = BrowserState.browsing(["a.pdf"])
        #expect(state.apply(.navigation(.open)) == [.openFile(path: "/home/me/a.pdf", kind: .pdf)])
    }

    @Test func leftAndRightGoOutAndInInTheListButMoveInTheGrid() {
        var state = BrowserState.browsing(["a.txt", "b.txt", "c.txt"])
        #expect(state.apply(.navigation(.moveLeft)) == [.list(folder: "/home", ticket: state.ticket)])
        var grid = BrowserState.browsing(["a.txt", "b.txt", "c.txt"])
        grid.apply(.display(.toggleView))
        #expect(grid.apply(.navigation(.moveRight)).isEmpty && grid.cursor == 1)
        #expect(grid.apply(.navigation(.moveLeft)).isEmpty && grid.cursor == 0)
    }

    @Test func clicksSelectTheRowAndTheWheelMovesThree() {
        var state = BrowserState.browsing((0..<20).map { "f\($0)" })
        state.apply(.navigation(.click(row: state.layout.bodyTop + 4, column: 1)))
        #expect(state.cursor == 4)
        state.apply(.navigation(.click(row: 0, column: 1)))
        #expect(state.cursor == 4, "a click on the header selects nothing")
        state.apply(.navigation(.scroll(2)))
        #expect(state.cursor == 10)
        state.apply(.navigation(.scroll(-9)))
        #expect(state.cursor == 0, "the wheel stops at the first entry")
    }
}
