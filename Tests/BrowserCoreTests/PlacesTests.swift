import Testing
@testable import BrowserCore
import FileSystemKit

/// Getting back to places: the history under H and L, bookmarks set, gone to, checked, listed,
/// deleted and given another key.
@Suite struct PlacesTests {
    private func browsing(_ folder: String = "/home/me") -> BrowserState {
        var state = BrowserState(folder: folder, layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.list(["a.jpg", "b.jpg"], folders: ["photos", "work"])
        return state
    }

    @Test func backAndForwardWalkTheFoldersVisitedAndLandWhereTheCursorWas() {
        var state = browsing()
        state.apply(.navigation(.open))  // photos (folders first)
        state.list(["x.jpg", "y.jpg", "z.jpg"])
        state.apply(.navigation(.moveDown(2)))
        state.apply(.navigation(.parent))
        state.list(["a.jpg", "b.jpg"], folders: ["photos", "work"])
        state.apply(.navigation(.moveDown(1)))
        state.apply(.navigation(.open))  // work
        state.list(["w.txt"])
        #expect(state.history.stops.map(\.folder) == ["/home/me", "/home/me/photos", "/home/me", "/home/me/work"])
        #expect(state.press("H", .places(.back)) == [.list(folder: "/home/me", ticket: state.ticket)])
        state.list(["a.jpg", "b.jpg"], folders: ["photos", "work"])
        #expect(state.selected?.name == "work", "back where the cursor was when the folder was left")
        _ = state.press("H", .places(.back))
        state.list(["x.jpg", "y.jpg", "z.jpg"])
        #expect(state.folder == "/home/me/photos" && state.selected?.name == "z.jpg")
        _ = state.press("L", .places(.forward))
        _ = state.press("L", .places(.forward))
        #expect(state.folder == "/home/me/work")
        #expect(state.press("L", .places(.forward)).isEmpty && state.message == "no folder after this one")
        // A new folder after going back drops what was ahead, as a web browser does.
        _ = state.press("H", .places(.back))
        state.apply(.navigation(.parent))
        #expect(!state.history.canGoForward && state.history.stops.last?.folder == "/home")
    }

    @Test func aBookmarkIsSetWithAKeyAndGoneToOnceItsFolderAnswers() {
        var state = browsing()
        state.apply(.bookmarksLoaded([], problem: nil))  // the file read at start (keys before it: below)
        state.apply(.navigation(.moveDown(3)))  // b.jpg
        _ = state.press("b", .places(.bookmark))
        #expect(state.mode == .awaitingKey(.setBookmark) && state.message?.contains("press a key") == true)
        let saved = state.press("p", .files(.paste))
        let bookmark = Bookmark(key: "p", folder: "/home/me", file: "b.jpg")
        #expect(saved == [.saveBookmarks([bookmark])], "p names the bookmark; nothing is pasted")
        #expect(state.mode == .browsing && state.message?.contains("' then p") == true)
        state.apply(.navigation(.open))  // … elsewhere: b.jpg is a file, go into work instead
        state.apply(.navigation(.home))
        state.apply(.navigation(.moveDown(1)))
        state.apply(.navigation(.open))
        state.list(["w.txt"])
        #expect(state.press("'", .places(.jumpToBookmark)).isEmpty && state.message?.contains("p me") == true)
        #expect(state.press("p", .files(.paste)) == [.checkBookmark(bookmark)], "the folder is checked before going")
        #expect(state.folder == "/home/me/work", "nothing moves until the check answers")
        #expect(state.apply(.bookmarkChecked(bookmark, problem: nil)) == [.list(folder: "/home/me", ticket: state.ticket)])
        state.list(["a.jpg", "b.jpg"], folders: ["photos", "work"])
        #expect(state.selected?.name == "b.jpg")
    }

    @Test func anUnavailableBookmarkSaysWhyAndTheBrowserStays() {
        var state = browsing()
        let stick = Bookmark(key: "s", folder: "/media/stick/photos", file: nil)
        state.apply(.bookmarksLoaded([stick], problem: nil))
        _ = state.press("'", .places(.jumpToBookmark))
        _ = state.press("s", nil)
        #expect(state.apply(.bookmarkChecked(stick, problem: "not there (is its volume mounted?)")).isEmpty)
        #expect(state.folder == "/home/me" && state.message == "bookmark s is unavailable: not there (is its volume mounted?) · /media/stick/photos")
        _ = state.press("'", .places(.jumpToBookmark))
        _ = state.press("x", nil)
        #expect(state.message == "no bookmark under x" && state.mode == .browsing)
        _ = state.press("'", .places(.jumpToBookmark))
        state.apply(.key(.escape, nil))
        #expect(state.mode == .browsing, "Esc gives up")
    }

    @Test func keysPressedBeforeTheFileIsReadStillCount() {
        var state = browsing()
        let work = Bookmark(key: "w", folder: "/home/me/work", file: nil)
        _ = state.press("'", .places(.jumpToBookmark))
        #expect(state.mode == .awaitingKey(.jumpToBookmark), "the file may not be read yet: the key is awaited")
        #expect(state.press("w", nil).isEmpty)
        _ = state.press("b", .places(.bookmark))
        let setEarly = state.press("h", nil)
        #expect(setEarly == [.addBookmarks([Bookmark(key: "h", folder: "/home/me", file: state.selected?.name)])],
                "set before the file is read: written beside the file's own, which a quit now must not lose")
        let effects = state.apply(.bookmarksLoaded([work, Bookmark(key: "h", folder: "/old", file: nil)], problem: nil))
        #expect(effects.contains(.checkBookmark(work)), "the jump asked for before goes once the file is read")
        #expect(state.bookmarks.map(\.folder) == ["/home/me", "/home/me/work"], "the bookmark set meanwhile wins over the file's")
        #expect(effects.contains(.saveBookmarks(state.bookmarks)))
        var empty = browsing()
        empty.apply(.bookmarksLoaded([], problem: nil))
        _ = empty.press("'", .places(.jumpToBookmark))
        #expect(empty.mode == .browsing && empty.message?.contains("no bookmarks yet") == true)
        _ = empty.press("b", .places(.bookmark))
        #expect(empty.press("k", nil) == [.saveBookmarks(empty.bookmarks)], "once read, the list is the file")
    }

    @Test func theListShowsEachFoldersStateAndDeletesAndRekeys() {
        var state = browsing()
        let home = Bookmark(key: "h", folder: "/home/me", file: nil), share = Bookmark(key: "n", folder: "/mnt/nas", file: nil)
        state.apply(.bookmarksLoaded([home, share], problem: nil))
        #expect(state.press("B", .places(.bookmarks)) == [.checkBookmarks(["/home/me", "/mnt/nas"])])
        #expect(state.overlay == .bookmarks)
        state.apply(.bookmarksChecked([BookmarkCheck(folder: "/mnt/nas", problem: "its volume is not responding")]))
        #expect(state.bookmarkProblems["/mnt/nas"] == "its volume is not responding" && state.bookmarkProblems["/home/me"] == nil)
        state.apply(.key(.special(.down), .move(.down)))
        _ = state.press("r", .files(.rename))
        #expect(state.mode == .awaitingKey(.rekeyBookmark("n")))
        _ = state.press("h", nil)
        #expect(state.message?.contains("already names") == true && state.overlay == .bookmarks, "a key in use is not taken over")
        _ = state.press("r", .files(.rename))
        #expect(state.press("s", nil) == [.saveBookmarks([home, Bookmark(key: "s", folder: "/mnt/nas", file: nil)])])
        #expect(state.press("d", .files(.trash)) == [.saveBookmarks([home])], "d deletes the bookmark, not a file")
        state.apply(.key(.escape, nil))
        #expect(state.overlay == nil)
    }

    @Test func placesWaitWhileQuickLookIsOpen() {
        var state = browsing()
        state.apply(.navigation(.moveDown(2)))
        state.apply(.quickLook(.open))
        #expect(state.press("H", .places(.back)).isEmpty && state.overlay == .quickLook && state.folder == "/home/me")
        #expect(state.press("b", .places(.bookmark)).isEmpty && state.mode == .overlay(.quickLook))
    }
}
