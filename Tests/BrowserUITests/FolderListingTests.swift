import BrowserCore
import FileSystemKit
import Places
import Testing
@testable import BrowserUI

/// The browser's listing path above the place layer, against a place that is not the local disk:
/// the state's `.list` effects run through `FolderListing` over a `MemoryPlace`, and what comes
/// back through the inbox is what the state shows.
@Suite struct FolderListingTests {
    private static let photos: [String: [(name: String, size: Int, isFolder: Bool)]] = [
        "/photos": [("b.jpg", 20, false), ("album", 0, true), ("a.jpg", 10, false), ("c.png", 30, false), ("notes.txt", 5, false)],
        "/photos/album": [("inside.jpg", 1, false)],
    ]

    /// Runs the state's listing effects through `listing` and hands every answer back to it.
    private func drive(_ state: inout BrowserState, _ effects: [BrowserEffect], _ listing: FolderListing, _ inbox: Inbox) {
        var effects = effects
        while !effects.isEmpty {
            for case .list(let folder, let ticket) in effects { listing.list(folder, ticket: ticket) }
            effects = []
            for case .result(let result) in inbox.drain() { effects += state.apply(result) }
        }
    }

    @Test func theBrowserListsAFolderOfAnotherPlaceInBatches() {
        let inbox = Inbox()
        let listing = FolderListing(place: MemoryPlace(Self.photos, batchSize: 2), inbox: inbox)
        var state = BrowserState(folder: "/photos")
        drive(&state, state.apply(BackgroundResult.reload(select: nil)), listing, inbox)
        #expect(state.listingComplete && state.listingError == nil)
        #expect((0..<state.entries.count).map { state.entries[$0].name } == ["album", "a.jpg", "b.jpg", "c.png", "notes.txt"],
                "three batches of the memory place, sorted as any folder")
        drive(&state, state.apply(.navigation(.open)), listing, inbox)
        #expect(state.folder == "/photos/album" && state.entries.count == 1 && state.entries[0].name == "inside.jpg")
    }

    @Test func aPlaceThatIsGoneOrMissingSaysSo() {
        let inbox = Inbox()
        let listing = FolderListing(place: MemoryPlace(Self.photos, unreachable: ["/photos/album"]), inbox: inbox)
        var state = BrowserState(folder: "/nowhere")
        drive(&state, state.apply(BackgroundResult.reload(select: nil)), listing, inbox)
        #expect(state.listingComplete && state.listingError?.contains("no such folder in memory") == true)
        listing.list("/photos/album", ticket: state.ticket)
        let answers = inbox.drain().compactMap { message -> BackgroundResult? in
            if case .result(let result) = message { return result }
            return nil
        }
        #expect(answers.contains { if case .listingLostVolume = $0 { return true } else { return false } })
    }
}
