import Testing
@testable import BrowserCore
@testable import FileSystemKit

/// Whether something comes from the user is decided by its type: a `BrowserAction` clears the
/// status message, a `BackgroundResult` never does (unless it brings a message of its own).
@Suite struct BackgroundResultTests {
    /// A state showing the message "copied 3 items".
    private func withMessage() -> BrowserState {
        var state = BrowserState.browsing(["a", "b"], folders: ["dir"])
        state.apply(.showMessage("copied 3 items"))
        #expect(state.message == "copied 3 items")
        return state
    }

    @Test func aBackgroundResultDoesNotClearTheUsersMessage() {
        let results: [BackgroundResult] = [
            .tick(now: 5_000_000_000),
            .listed(ticket: 1, entries: EntryStore([Entry(name: "c")]), complete: true),
            .listingStalled(ticket: 99, volume: "nas"),
            .volumesChanged([]),
            .volumeLost(mountPoint: "/mnt/none"),
            .capabilitiesFound(mountPoint: "/", VolumeCapabilities(isReadOnly: false, nameMax: 255, isCaseInsensitive: nil, supportsSymlinks: true, maximumFileSize: nil, forbiddenCharacters: [])),
            .jobChanged(JobStatus(id: 1, folder: "/home/me")),
            .trashed([]),
            .quickLookFacts(path: "/elsewhere", QuickLookFacts(pageCount: 3)),
            .editRestored(path: "/elsewhere/x.jpg"),
            .bookmarksChecked([]),
            .found(ticket: 1, FileFinder.Report(query: "x", best: [], matched: 0, walked: 0, complete: true, unreadable: 0)),
            .namesEdited(folder: "/elsewhere", names: [], edited: nil),
        ]
        for result in results {
            var state = withMessage()
            state.apply(result)
            #expect(state.message == "copied 3 items", "\(result) kept the message")
        }
    }

    @Test func aUserActionClearsIt() {
        let actions: [BrowserAction] = [
            .navigation(.moveDown(1)),
            .key(.special(.down), .move(.down)),
            .screen(.resize(rows: 30, columns: 100)),
            .display(.toggleExtensions),
            .tabs(.show(5)),  // no such tab: a message of its own, not the old one
        ]
        for action in actions {
            var state = withMessage()
            state.apply(action)
            #expect(state.message != "copied 3 items", "\(action) cleared the message")
        }
    }

    @Test func aResultWithNewsOfItsOwnReplacesTheMessage() {
        var state = withMessage()
        state.apply(.listingFailed(ticket: state.ticket, reason: "permission denied"))
        #expect(state.message == "permission denied")
    }
}
