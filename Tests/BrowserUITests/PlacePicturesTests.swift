@testable import BrowserCore
@testable import BrowserUI
import FileSystemKit
import Places
import SystemKit
import TerminalGraphics
import Testing
import ThumbnailKit

/// The browser's pictures and its `T` batch come from its place, not the disk: a browser on a
/// `MemoryPlace` (folders that exist nowhere on disk) shows the place's pictures and runs the
/// place's batch, and its workers are asked for no thumbnail.
@Suite(.serialized) struct PlacePicturesTests {
    struct Rig {
        let place: MemoryPlace
        let workers = BrowserAppTests.RecordingWorkers()
        let screen = RecordingScreen(rows: 24, columns: 100)
        let app: BrowserApp

        init(_ folders: [String: [(name: String, size: Int, isFolder: Bool)]], start: String) {
            place = MemoryPlace(folders)
            app = BrowserAppTests.Rig.openApp(folder: start, screen: screen, workers: workers, cacheRoot: TemporaryFolder.make(),
                                               place: place, writeJournal: { _, _ in })
        }

        /// Turns the loop until `done` holds (as BrowserAppTests does).
        func turn(until done: () -> Bool) async -> Bool { await BrowserAppTests.Rig.turn(app, until: done) }

        /// The workers were asked for no thumbnail (Quick Look's previews aside).
        var workersMadeNoThumbnail: Bool {
            workers.requests.withLock { $0.allSatisfy { if case .thumbnails = $0 { false } else { true } } }
        }
    }

    @Test func thePreviewPanesPictureComesFromThePlaceAtEveryQualityWithTheListedVersion() async {
        let rig = Rig(["/memory/photos": [(name: "beach.jpg", size: 4096, isFolder: false), (name: "dunes.jpg", size: 512, isFolder: false)]],
                      start: "/memory/photos")
        let path = "/memory/photos/beach.jpg"
        #expect(await rig.turn { rig.app.state.selected?.name == "beach.jpg" })
        // The picture in the store is the place's best (an icon and a low-quality one came before it).
        #expect(await rig.turn {
            rig.app.view.store.pictures.contains { $0.key.path == path && $0.value.source == "memory" && $0.value.type == .thumbnail }
        })
        let asked = rig.place.thumbnailsAsked.withLock { $0 }
        #expect(asked.contains { $0.path == path && $0.size == 4096 }, "the place is asked with the item's listed version")
        // The neighbour below is fetched ahead, as before, through the same place.
        #expect(asked.contains { $0.path == "/memory/photos/dunes.jpg" })
        #expect(rig.workersMadeNoThumbnail)
    }

    @Test func aBatchRunsOnThePlaceAndItsEventsFillTheJob() async {
        let rig = Rig(["/memory": [(name: "photos", size: 0, isFolder: true)],
                       "/memory/photos": [(name: "a.jpg", size: 10, isFolder: false), (name: "b.jpg", size: 20, isFolder: false),
                                          (name: "old", size: 0, isFolder: true)],
                       "/memory/photos/old": [(name: "c.jpg", size: 30, isFolder: false)]],
                      start: "/memory")
        #expect(await rig.turn { rig.app.state.selected?.name == "photos" })
        rig.screen.keys.append(.key(.character(UInt32(UInt8(ascii: "T")))))
        #expect(await rig.turn { rig.app.state.jobs.first?.phase == .finished })
        #expect(rig.place.batchesAsked.withLock { $0 } == [["/memory/photos"]])
        let job = rig.app.state.jobs.first
        #expect(job?.total == 3 && job?.generated == 3 && job?.failed == 0)
        #expect(rig.workersMadeNoThumbnail)
    }
}
