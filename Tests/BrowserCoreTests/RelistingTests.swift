import Testing
@testable import BrowserCore
import FileSystemKit

/// The folder listed again (after an operation, or a change its watch saw) behind the listing
/// shown: keys act on what the user sees until the new listing is all in.
@Suite struct RelistingTests {
    @Test func theShownListingStaysAndKeysActOnItUntilTheNewOneIsIn() {
        var state = BrowserState.browsing(["a.txt", "b.txt"])
        state.apply(.navigation(.moveDown(1)))
        state.apply(.reload(select: nil))
        #expect(state.entries.map(\.name) == ["a.txt", "b.txt"] && state.selected?.name == "b.txt", "nothing empties meanwhile")
        // A first batch: still the old listing (a `d` now trashes b.txt, as shown).
        state.apply(.listed(ticket: state.ticket, entries: EntryStore([Entry(name: "a.txt")]), complete: false))
        #expect(state.entries.map(\.name) == ["a.txt", "b.txt"] && state.selected?.name == "b.txt")
        state.apply(.files(.toggleMark))
        // The rest: the new listing in place, the cursor where it was.
        state.apply(.listed(ticket: state.ticket, entries: EntryStore([Entry(name: "b.txt"), Entry(name: "c.txt")]), complete: true))
        #expect(state.entries.map(\.name) == ["a.txt", "b.txt", "c.txt"])
        #expect(state.selected?.name == "b.txt")
        #expect(state.marked.isEmpty, "an operation's relisting drops the marks")
    }

    @Test func aWatchedChangeKeepsTheMarksAndTheCursorTheUserMovedMeanwhile() {
        var state = BrowserState.browsing(["a.txt", "b.txt", "c.txt"])
        state.apply(.files(.toggleMark))  // a.txt, the cursor moves on
        state.apply(.folderChanged(folder: "/home/me"))
        state.apply(.navigation(.moveDown(1)))
        let cursorOn = state.selected?.name
        state.list(["a.txt", "b.txt", "c.txt", "d.txt"])
        #expect(state.selected?.name == cursorOn && cursorOn != nil)
        #expect(state.marked == [Array("a.txt".utf8)])
    }

    @Test func aRelistingThatFailsLeavesWhatIsShownAndSaysWhy() {
        var state = BrowserState.browsing(["a.txt", "b.txt"])
        state.apply(.reload(select: nil))
        state.apply(.listingFailed(ticket: state.ticket, reason: "permission denied"))
        #expect(state.entries.map(\.name) == ["a.txt", "b.txt"] && state.message == "permission denied")
        #expect(state.navigation.listingError == nil)
    }

    @Test func goingElsewhereDropsTheRelisting() {
        var state = BrowserState.browsing(["a.txt"], folders: ["sub"])
        state.apply(.reload(select: nil))
        let old = state.ticket
        state.apply(.navigation(.home))
        #expect(state.selected?.name == "sub")
        state.apply(.navigation(.open))
        state.apply(.listed(ticket: old, entries: EntryStore([Entry(name: "late.txt")]), complete: true))
        #expect(state.folder == "/home/me/sub" && state.entries.isEmpty, "the old folder's late listing is dropped")
        state.list(["inside.txt"])
        #expect(state.entries.map(\.name) == ["inside.txt"])
    }

    @Test func aListingStillArrivingIsReplacedAtOnceAndTheNewOneStreams() {
        var state = BrowserState(folder: "/home/me", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.apply(.listed(ticket: state.ticket, entries: EntryStore([Entry(name: "a.txt")]), complete: false))
        state.apply(.reload(select: nil))
        state.apply(.listed(ticket: state.ticket, entries: EntryStore([Entry(name: "a.txt"), Entry(name: "b.txt")]), complete: false))
        #expect(state.entries.map(\.name) == ["a.txt", "b.txt"] && !state.listingComplete, "the new listing shows as it comes")
        state.apply(.listed(ticket: state.ticket, entries: EntryStore([Entry(name: "c.txt")]), complete: true))
        #expect(state.entries.map(\.name) == ["a.txt", "b.txt", "c.txt"] && state.listingComplete)
    }
}
