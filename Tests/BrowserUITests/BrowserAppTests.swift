@testable import BrowserCore
@testable import BrowserUI
import FileSystemKit
import Places
import Synchronization
import SystemKit
import TerminalGraphics
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `BrowserApp` built from parts a test gives it: a recording screen that plays keys, a worker
/// backend that records what is asked of it, a cache and a journal in a temporary folder. Keys
/// go in; the drawn text and the requests come out. (The tmux suites run the real terminal.)
@Suite(.serialized) struct BrowserAppTests {
    /// Workers that are not there: each request is written down and answered with a failure,
    /// which Quick Look shows like any worker's.
    final class RecordingWorkers: WorkerBackend {
        let requests = Mutex<[WorkerRequest]>([])
        func submit(_ request: WorkerRequest) -> AsyncThrowingStream<WorkerEvent, Error> {
            requests.withLock { $0.append(request) }
            return AsyncThrowingStream { $0.finish(throwing: ThumbnailError(.crashed, "no worker in this test")) }
        }
        func shutdown(waitSeconds: Double) async {}
        func asked(_ kind: String, _ path: String) -> Bool {
            requests.withLock { $0.contains { "\($0)".hasPrefix(kind) && $0.path == path } }
        }
    }

    struct Rig {
        let folder: String
        let screen = RecordingScreen(rows: 24, columns: 100)
        let workers = RecordingWorkers()
        let app: BrowserApp

        init(files: [String: String]) {
            folder = TemporaryFolder.make()
            for (name, text) in files { try? AtomicFileWriter.write(Array(text.utf8), to: folder + "/" + name, permissions: 0o644) }
            app = Self.openApp(folder: folder, screen: screen, workers: workers, cacheRoot: folder,
                               writeJournal: { bytes, path in try? AtomicFileWriter.write(bytes, to: path, permissions: 0o600) })
        }

        /// A browser on `folder` drawing on `screen`, its workers `workers`, its cache and journal
        /// under `cacheRoot`, on `place` when one is given (else the local disk), opened and drawn.
        static func openApp(folder: String, screen: RecordingScreen, workers: RecordingWorkers, cacheRoot: String, place: (any Place)? = nil,
                            writeJournal: @escaping @Sendable ([UInt8], String) -> Void) -> BrowserApp {
            let options = BrowserOptions(folder: folder, graphics: .off, theme: .builtIn, lsColors: LSColors(nil), useColor: false,
                                         chooseDirFile: nil, logFile: nil)
            let parts = BrowserParts(previews: workers, thumbnails: workers, jobs: workers, edits: workers,
                                     cache: ThumbnailCache(root: cacheRoot + "/.cache", readsShared: false),
                                     journal: UndoJournal(path: cacheRoot + "/journal.json", write: writeJournal),
                                     time: SystemTime(), place: place) {}
            let app = BrowserApp(options: options, screen: screen, graphics: GraphicsSession(requested: .off, environment: [:]), parts: parts)
            _ = app.begin()
            app.open(volumes: [], note: nil)
            return app
        }

        /// Turns `app`'s loop until `done` holds; false if it never did within a generous number
        /// of turns. Between turns the test awaits rather than blocks: the background's tasks need
        /// the cooperative threads that the whole test process shares.
        static func turn(_ app: BrowserApp, until done: () -> Bool) async -> Bool {
            for _ in 0..<1000 {
                app.turn()
                if done() { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return done()
        }

        /// Turns the loop until `done` holds (`turn(_:until:)`).
        func turn(until done: () -> Bool) async -> Bool { await Self.turn(app, until: done) }

        func press(_ keys: KeyInput...) { screen.keys += keys }

        func shows(_ text: String) -> Bool { (0..<screen.rows).contains { screen.line($0).contains(text) } }
    }

    private static let space = KeyInput.key(.character(32))

    @Test func theListingIsDrawnAndKeysMoveTheCursor() async {
        let rig = Rig(files: ["alpha.txt": "one\n", "beta.txt": "two\n"])
        defer { TemporaryFolder.remove(rig.folder) }
        #expect(await rig.turn { rig.shows("alpha.txt") && rig.shows("beta.txt") })
        #expect(rig.app.state.selected?.name == "alpha.txt")
        rig.press(.key(.special(.down)))
        rig.app.turn()
        #expect(rig.app.state.selected?.name == "beta.txt")
    }

    @Test func aNewFolderIsMadeThroughTheSchedulerAndListed() async {
        let rig = Rig(files: ["alpha.txt": "one\n"])
        defer { TemporaryFolder.remove(rig.folder) }
        #expect(await rig.turn { rig.shows("alpha.txt") })
        rig.press(.key(.character(UInt32(UInt8(ascii: "a")))))
        for character in "made/".unicodeScalars { rig.press(.key(.character(character.value))) }
        rig.press(.key(.special(.enter)))
        // Made off the loop (the scheduler's file group), then the folder is listed again with it selected.
        #expect(await rig.turn { rig.app.state.selected?.name == "made" && rig.shows("made") })
        var status = stat()
        #expect(stat(rig.folder + "/made", &status) == 0 && status.st_mode & S_IFMT == S_IFDIR)
        #expect(await rig.turn { !rig.app.effects.tasks.isBusy(group: FileJobRunner.group) })
    }

    @Test func quickLookReadsATextFilesLinesAndAsksNoWorkerForThem() async {
        let rig = Rig(files: ["notes.txt": "first line of the notes\nsecond line\n"])
        defer { TemporaryFolder.remove(rig.folder) }
        #expect(await rig.turn { rig.shows("notes.txt") })
        rig.press(Self.space)
        #expect(await rig.turn { rig.shows("first line of the notes") && rig.shows("second line") })
        // Once both answers are in, nothing is in flight; of Quick Look's requests, only whether
        // a custom previewer takes the file over went to the workers (the list's thumbnail may too).
        #expect(await rig.turn { rig.app.demand.inFlight.isEmpty })
        #expect(rig.workers.asked("previewer", rig.folder + "/notes.txt"))
        let quickLooks = rig.workers.requests.withLock { $0.filter { if case .thumbnails = $0 { false } else { true } } }
        #expect(quickLooks.count == 1)
    }

    @Test func quickLookAsksTheWorkersForAnArchivesMembersOnceAndShowsTheirAnswer() async {
        let rig = Rig(files: ["box.zip": "not really a zip"])
        defer { TemporaryFolder.remove(rig.folder) }
        #expect(await rig.turn { rig.shows("box.zip") })
        rig.press(Self.space)
        #expect(await rig.turn { rig.shows("no worker in this test") && rig.app.demand.inFlight.isEmpty })
        let path = rig.folder + "/box.zip"
        #expect(rig.workers.asked("members", path))
        // Drawn again and again: the members are asked once, the answer being in.
        for _ in 0..<3 { rig.press(.key(.character(12))); rig.app.turn() }
        #expect(rig.workers.requests.withLock { $0.filter { if case .members = $0 { true } else { false } }.count } == 1)
        // Leaving Quick Look leaves nothing in flight.
        rig.press(Self.space)
        #expect(await rig.turn { rig.app.state.overlay == nil })
        #expect(rig.app.demand.inFlight.isEmpty)
    }
}
