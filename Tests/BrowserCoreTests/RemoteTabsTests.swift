import Testing
@testable import BrowserCore
import FileSystemKit

/// Remote folders in tabs (#26): a connect opens the remote in a new tab beside the local one;
/// a remote path goes up to its place's root and no further; a paste from a local tab into a
/// remote tab is one file operation across the two.
@Suite struct RemoteTabsTests {
    static let remote = "ssh://me@nas:2222"

    @Test func aConnectedRemoteOpensInANewTabBesideTheLocalOne() throws {
        var state = BrowserState.browsing(["a.jpg"])
        state.apply(.volumes(.toggle))
        state.apply(.volumes(.connect))
        for character in "ssh://me@nas:2222/photos" { state.apply(.prompt(.input(String(character)))) }
        #expect(state.apply(.prompt(.accept)) == [.drives(.connect(url: "ssh://me@nas:2222/photos", password: nil))])
        let effects = state.apply(.drives(.openedRemote(url: "ssh://me@nas:2222/photos", folder: Self.remote + "/srv/photos")))
        #expect(effects == [.list(folder: Self.remote + "/srv/photos", ticket: state.ticket)])
        try #require(state.tabs.count == 2)
        #expect(state.currentTab == 1 && state.folder == Self.remote + "/srv/photos")
        #expect(state.tabs[0].folder == "/home/me", "the local tab stays")
        #expect(state.message?.hasPrefix("connected to ssh://me@nas:2222/photos") == true)
    }

    @Test func aRemotePathGoesUpToItsRootAndNoFurther() {
        var state = BrowserState(folder: Self.remote + "/srv", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.list(["a.jpg"])
        #expect(state.apply(.navigation(.parent)) == [.list(folder: Self.remote, ticket: state.ticket)])
        state.list([], folders: ["srv"])
        #expect(state.selected?.name == "srv", "the cursor lands on the folder left")
        #expect(state.apply(.navigation(.parent)) == [], "the root of a remote has no parent")
        #expect(state.folder == Self.remote)
        state.apply(.navigation(.open))
        #expect(state.folder == Self.remote + "/srv", "a name joins the root as it joins /")
    }

    @Test func aCopyInOneTabPastesIntoAnotherTabsPlace() {
        var state = BrowserState.browsing(["a.jpg"])
        _ = state.press("y", .files(.copy))
        _ = state.press("t", .tabs(.newTab))
        _ = state.enter(Self.remote + "/srv", select: nil)
        state.list([])
        #expect(state.press("p", .files(.paste)) == [.fileOperation(.copy, sources: ["/home/me/a.jpg"], destination: Self.remote + "/srv")])
    }
}
