import SystemKit
import Testing
@testable import BrowserCore
import FileSystemKit
import ThumbnailKit

@Suite struct BrowserStateTests {
    private func loaded(_ names: [String], folders: [String] = [], rows: Int = 10, columns: Int = 100) -> BrowserState {
        var state = BrowserState(folder: "/home/me", layout: ScreenLayout(rows: rows, columns: columns))
        let effects = state.start()
        #expect(effects == [.list(folder: "/home/me", ticket: 1), .loadBookmarks], "the folder is listed and the bookmarks read")
        let entries = names.map { Entry(name: $0, size: $0.count) } + folders.map { Entry(name: $0, isDirectory: true) }
        state.apply(.listed(ticket: 1, entries: EntryStore(entries), complete: true))
        return state
    }

    @Test func foldersComeFirstThenNamesInNaturalOrder() {
        let state = loaded(["b10.jpg", "b2.jpg", "A.txt"], folders: ["zeta", "alpha"])
        #expect(state.entries.map(\.name) == ["alpha", "zeta", "A.txt", "b2.jpg", "b10.jpg"])
    }

    @Test func hiddenFilesAppearOnlyWhenAsked() {
        var state = loaded([".bashrc", "notes.txt"])
        #expect(state.entries.map(\.name) == ["notes.txt"])
        state.apply(.display(.toggleHidden))
        #expect(state.entries.map(\.name) == [".bashrc", "notes.txt"])
    }

    @Test func cursorStaysInsideTheListAndTheListScrolls() {
        var state = loaded((0..<30).map { "f\($0)" })  // 8 body rows
        state.apply(.navigation(.moveUp(1)))
        #expect(state.cursor == 0)
        state.apply(.navigation(.moveDown(9)))
        #expect(state.cursor == 9 && state.top == 2)
        state.apply(.navigation(.end))
        #expect(state.cursor == 29 && state.top == 22)
        state.apply(.navigation(.pageUp))
        #expect(state.cursor == 21)
        state.apply(.navigation(.home))
        #expect(state.cursor == 0 && state.top == 0)
    }

    @Test func filterNarrowsAsYouTypeEnterKeepsItEscapeClearsIt() {
        var state = loaded(["apple.jpg", "banana.jpg", "Pineapple.png"])
        state.apply(.filter(.start))
        state.apply(.filter(.input("APP")))
        #expect(state.entries.map(\.name) == ["apple.jpg", "Pineapple.png"])
        #expect(state.cursor == 0)
        state.apply(.filter(.accept))
        #expect(!state.isTypingFilter && state.filter == "APP")
        state.apply(.navigation(.moveDown(1)))
        #expect(state.selected?.name == "Pineapple.png")
        state.apply(.filter(.start))
        state.apply(.filter(.cancel))
        #expect(state.entries.count == 3 && state.filter.isEmpty)
    }

    /// Issue 23: `/` after a kept filter typed onto the old text ("APP" then "le" gave "APPle").
    /// As in ranger and yazi, it starts a new filter; the list shows everything until one is typed.
    @Test func slashAfterAKeptFilterStartsANewOne() {
        var state = loaded(["apple.jpg", "banana.jpg", "Pineapple.png"])
        state.apply(.filter(.start))
        state.apply(.filter(.input("APP")))
        state.apply(.filter(.accept))
        state.apply(.navigation(.moveDown(1)))
        #expect(state.filter == "APP" && state.entries.count == 2)
        state.apply(.filter(.start))
        #expect(state.isTypingFilter && state.filter.isEmpty)
        #expect(state.entries.count == 3 && state.selected?.name == "Pineapple.png", "everything shows again, the selection kept")
        state.apply(.filter(.input("ban")))
        #expect(state.filter == "ban" && state.entries.map(\.name) == ["banana.jpg"])
    }

    /// The help turns pages with the moving keys, and the list under it stays put.
    @Test func theHelpTurnsPagesAndLeavesTheListAlone() {
        var state = loaded(["a", "b", "c"])
        state.apply(.screen(.help))
        state.apply(.navigation(.moveDown(1)))
        state.apply(.navigation(.pageDown))
        #expect(state.helpPage == 2 && state.cursor == 0)
        state.apply(.navigation(.moveUp(1)))
        #expect(state.helpPage == 1 && state.cursor == 0)
        state.apply(.screen(.closeOverlay))
        state.apply(.screen(.help))
        #expect(state.helpPage == 0, "the help opens at its first page")
    }

    @Test func sortCyclesAndKeepsTheSelection() {
        var state = loaded(["a", "bbbbbb", "cc"])
        state.apply(.navigation(.moveDown(1)))  // "bbbbbb"
        state.apply(.display(.cycleSort))
        #expect(state.sort == .size)
        #expect(state.entries.map(\.name) == ["bbbbbb", "cc", "a"])
        #expect(state.selected?.name == "bbbbbb")
    }

    @Test func openingAFolderListsItAndGoingUpSelectsWhereWeCameFrom() {
        var state = loaded(["x.txt"], folders: ["Photos"])
        let effects = state.apply(.navigation(.open))
        #expect(effects == [.list(folder: "/home/me/Photos", ticket: 2)])
        #expect(state.entries.isEmpty)
        state.apply(.listed(ticket: 1, entries: EntryStore([Entry(name: "late")]), complete: true))
        #expect(state.entries.isEmpty, "answers for an old ticket are dropped")
        let up = state.apply(.navigation(.parent))
        #expect(up == [.list(folder: "/home/me", ticket: 3)])
        state.apply(.listed(ticket: 3, entries: EntryStore([Entry(name: "x.txt"), Entry(name: "Photos", isDirectory: true), Entry(name: "a", isDirectory: true)]), complete: true))
        #expect(state.selected?.name == "Photos")
    }

    @Test func openingAFileAsksTheUIToOpenIt() {
        var state = loaded(["movie.mp4"])
        #expect(state.apply(.navigation(.open)) == [.openFile(path: "/home/me/movie.mp4", kind: .video)])
    }

    @Test func theRootHasNoParent() {
        var state = BrowserState(folder: "/")
        _ = state.start()
        #expect(state.apply(.navigation(.parent)) == [])
        state.apply(.listed(ticket: 1, entries: EntryStore([Entry(name: "etc", isDirectory: true)]), complete: true))
        #expect(state.apply(.navigation(.open)) == [.list(folder: "/etc", ticket: 2)])
    }

    @Test func gridMovesByTilesAndRows() {
        var state = loaded((0..<40).map { "p\($0).jpg" }, rows: 30, columns: 90)  // 5 columns, 3 rows of tiles
        state.apply(.display(.toggleView))
        #expect(state.layout.gridColumns == 5)
        state.apply(.navigation(.moveRight))
        #expect(state.cursor == 1)
        state.apply(.navigation(.moveDown(state.layout.gridColumns)))
        #expect(state.cursor == 6)
        state.apply(.navigation(.end))
        #expect(state.top == 39 / 5 - 2)
        #expect(state.visibleRange.contains(39))
    }

    @Test func quickLookStepsThroughFilesAndClosesBack() {
        var state = loaded(["a.jpg", "b.jpg", "c.jpg"])
        state.apply(.quickLook(.open))
        #expect(state.overlay == .quickLook)
        state.apply(.navigation(.moveRight))
        #expect(state.selected?.name == "b.jpg" && state.overlay == .quickLook)
        state.apply(.quickLook(.open))
        #expect(state.overlay == nil && state.cursor == 1)
    }

    @Test func clicksSelectTheEntryUnderThePointer() {
        var state = loaded((0..<5).map { "f\($0)" })
        state.apply(.navigation(.click(row: 3, column: 2)))
        #expect(state.cursor == 2)
        state.apply(.navigation(.click(row: 0, column: 2)))
        #expect(state.cursor == 2, "the header is not an entry")
    }

    @Test func resizingKeepsTheCursorVisible() {
        var state = loaded((0..<50).map { "f\($0)" }, rows: 40)
        state.apply(.navigation(.moveDown(30)))
        state.apply(.screen(.resize(rows: 10, columns: 80)))
        #expect(state.visibleRange.contains(state.cursor))
    }

    @Test func namesWithEscapesAreDisplayedEscaped() {
        let entry = Entry(nameBytes: Array("\u{1B}]0;pwned\u{07}\u{1B}[2J.txt".utf8) + [0xFF], isDirectory: false, size: 0, modified: 0)
        #expect(entry.displayName == "\\e]0;pwned\\a\\e[2J.txt\\xFF")
        #expect(Entry(name: "photo.large.jpg").displayNameWithoutExtension == "photo.large")
    }

    @Test func theGridFillsTheScreenItHas() {
        let small = ScreenLayout(rows: 24, columns: 80)
        #expect(small.gridColumns == 4 && small.gridRows == 2)
        #expect(small.tileWidth * small.gridColumns == 80 && small.tileHeight * small.gridRows == small.bodyRows, "20x11 tiles, no rows left over")
        #expect(small.tileOrigin(index: 5, firstRow: 0) == (row: 12, column: 20))
        let wide = ScreenLayout(rows: 40, columns: 120)
        #expect(wide.tileWidth == 20 && wide.tileHeight == 9 && wide.gridRows == 4)
    }
}

@Suite struct ListingMergeTests {
    @Test func batchesMergeIntoSortedOrderAndTheCursorStaysOnItsEntry() {
        var state = BrowserState(folder: "/x", layout: ScreenLayout(rows: 10, columns: 100))
        _ = state.start()
        state.apply(.listed(ticket: 1, entries: EntryStore(["f10", "f30", "f50"].map { Entry(name: $0) }), complete: false))
        state.apply(.navigation(.moveDown(1)))
        #expect(state.selected?.name == "f30")
        state.apply(.listed(ticket: 1, entries: EntryStore(["f40", "f2", "f20", "F1"].map { Entry(name: $0) }), complete: true))
        #expect(state.entries.map(\.name) == ["F1", "f2", "f10", "f20", "f30", "f40", "f50"])
        #expect(state.selected?.name == "f30")
    }

    @Test func anUntouchedCursorStaysOnTheFirstRowWhileTheListingStreamsIn() {
        var state = BrowserState(folder: "/x", layout: ScreenLayout(rows: 10, columns: 100))
        _ = state.start()
        state.apply(.listed(ticket: 1, entries: EntryStore(["m", "n"].map { Entry(name: $0) }), complete: false))
        state.apply(.listed(ticket: 1, entries: EntryStore(["a", "b"].map { Entry(name: $0) }), complete: true))
        #expect(state.cursor == 0 && state.selected?.name == "a")
    }

    @Test func jumpingToTheEndDuringTheListingStaysAtTheEnd() {
        var state = BrowserState(folder: "/x", layout: ScreenLayout(rows: 10, columns: 100))
        _ = state.start()
        state.apply(.listed(ticket: 1, entries: EntryStore(["a", "b"].map { Entry(name: $0) }), complete: false))
        state.apply(.navigation(.end))
        state.apply(.listed(ticket: 1, entries: EntryStore(["c", "d"].map { Entry(name: $0) }), complete: true))
        #expect(state.selected?.name == "d")
    }

    @Test func aHundredThousandEntriesSortInNaturalOrder() {
        var state = BrowserState(folder: "/x")
        _ = state.start()
        for start in stride(from: 0, to: 100_000, by: 2000) {
            state.apply(.listed(ticket: 1, entries: EntryStore((start..<(start + 2000)).reversed().map { Entry(name: "file\($0).txt") }), complete: start + 2000 == 100_000))
        }
        #expect(state.entries.count == 100_000)
        #expect(state.entries.first?.name == "file0.txt" && state.entries[10].name == "file10.txt" && state.entries.last?.name == "file99999.txt")
    }

    @Test func keyComparisonAgreesWithStringComparison() {
        let names = ["a", "A2", "a10", "a02", "b", "x-1", "x_1", "Ünïcode", "z9z", "z10z", "", "007", "7"]
        for a in names {
            for b in names {
                let byKey = NaturalOrder.compareKeys(NaturalOrder.key(a), NaturalOrder.key(b))
                #expect((byKey < 0) == (NaturalOrder.compare(a, b) < 0) || NaturalOrder.compare(a, b) == 0, "\(a) vs \(b)")
            }
        }
    }
}
