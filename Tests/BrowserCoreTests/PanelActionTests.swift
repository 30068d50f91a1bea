import Testing
@testable import BrowserCore
import FileSystemKit

/// The jobs, volumes, changes and screen features' reducers: the panels and what the screen does.
@Suite struct PanelActionTests {
    private func job(_ id: Int, _ kind: JobKind, _ phase: JobStatus.Phase) -> JobStatus {
        var job = JobStatus(id: id, kind: kind, folder: "/home/me")
        job.phase = phase
        return job
    }

    @Test func theJobsPanelOpensOnTheNewestAndCancelsOrPausesOnlyWhatRuns() {
        var state = BrowserState.browsing(["a"])
        state.apply(.jobChanged(job(1, .file(.copy), .running)))
        state.apply(.jobChanged(job(2, .thumbnails, .finished)))
        state.apply(.jobs(.toggle))
        #expect(state.overlay == .jobs && state.jobCursor == 1)
        #expect(state.apply(.jobs(.cancel)).isEmpty, "a finished job is not cancelled")
        state.apply(.navigation(.moveUp(1)))
        #expect(state.apply(.jobs(.cancel)) == [.cancelJob(id: 1)])
        #expect(state.apply(.jobs(.togglePause)) == [.pauseJob(id: 1, paused: true)])
        state.apply(.jobs(.toggle))
        #expect(state.overlay == nil)
    }

    @Test func theVolumesViewOpensOnTheCurrentVolumeAndParentClosesIt() {
        var state = BrowserState.browsing(["a"])
        let root = Volume(mountPoint: "/", fsType: "ext4", source: "/dev/sda1", device: "8:1", kind: .local, isReadOnly: false, label: "root")
        let home = Volume(mountPoint: "/home", fsType: "ext4", source: "/dev/sda2", device: "8:2", kind: .local, isReadOnly: false, label: "home")
        state.apply(.volumesChanged([.init(volume: root), .init(volume: home)]))
        state.apply(.volumes(.toggle))
        #expect(state.overlay == .volumes && state.volumeCursor == 1)
        state.apply(.navigation(.parent))
        #expect(state.overlay == nil)
    }

    @Test func undoAndBulkRenameAreTheBrowsersNotAPanels() {
        var state = BrowserState.browsing(["a"])
        #expect(state.apply(.changes(.undo)) == [.undo])
        #expect(state.apply(.changes(.redo)) == [.redo])
        #expect(state.apply(.changes(.startBulkRename)) == [.editNames(folder: "/home/me", names: ["a"])])
        state.apply(.screen(.help))
        #expect(state.apply(.changes(.undo)).isEmpty, "not from under the help")
        var empty = BrowserState.browsing([])
        #expect(empty.apply(.changes(.startBulkRename)).isEmpty && empty.message == "nothing to rename here")
    }

    @Test func theHelpTurnsItsPagesAndTheScreenResizesAndQuits() {
        var state = BrowserState.browsing((0..<30).map { "f\($0)" })
        state.apply(.screen(.help))
        state.apply(.navigation(.pageDown))
        state.apply(.navigation(.moveDown(1)))
        #expect(state.overlay == .help && state.helpPage == 2 && state.cursor == 0, "the list underneath stays")
        state.apply(.screen(.help))
        #expect(state.overlay == nil)
        state.apply(.screen(.resize(rows: 40, columns: 120)))
        #expect(state.layout.rows == 40 && state.layout.columns == 120)
        #expect(state.apply(.screen(.redraw)) == [.redraw])
        #expect(state.apply(.screen(.quit)) == [.quit(folder: "/home/me")])
    }
}
