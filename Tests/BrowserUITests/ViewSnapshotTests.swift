import Foundation
import Testing
@testable import BrowserCore
@testable import BrowserUI
import FileSystemKit
import TerminalGraphics
import ThumbnailKit

/// Every screen part drawn into a recording screen and compared with a snapshot in
/// `Snapshots/` (characters, then styles by theme part). After a deliberate change to how a
/// screen looks, record them again with `QLBROWSE_RECORD_SNAPSHOTS=1 swift test --filter ViewSnapshotTests`
/// and read the diff.
@Suite(.serialized) struct ViewSnapshotTests {
    static let share = Volume(mountPoint: "/mnt/share", fsType: "cifs", source: "//nas/share", device: "0:50", kind: .network, isReadOnly: false, label: "share on nas")
    static let root = Volume(mountPoint: "/", fsType: "ext4", source: "/dev/sda1", device: "8:1", kind: .local, isReadOnly: false, label: "/")

    /// A folder of a few files (times in UTC) on a 24×80 screen.
    private func state(rows: Int = 24, columns: Int = 80, more: [Entry] = []) -> BrowserState {
        setenv("TZ", "UTC", 1)
        tzset()
        var state = BrowserState(folder: "/home/me/photos", layout: ScreenLayout(rows: rows, columns: columns))
        state.apply(.volumesChanged([.init(volume: Self.root, totalBytes: 500_000_000_000, freeBytes: 120_000_000_000), .init(volume: Self.share, isResponding: false)]))
        _ = state.start()
        let day = 1_790_000_000
        let entries = [
            Entry(name: "2024", isDirectory: true, modified: day), Entry(name: "beach.jpg", size: 2_400_000, modified: day + 60),
            Entry(name: "notes.txt", size: 812, modified: day + 3600), Entry(name: "clip.mp4", size: 48_000_000, modified: day),
            Entry(name: "song.flac", size: 31_000_000, modified: day), Entry(name: "a very long name that does not fit in the list column at all.pdf", size: 90_000, modified: day),
            Entry(name: "bad\u{1B}[31mname.txt", size: 3, modified: day),
        ] + more
        state.apply(.listed(ticket: state.ticket, entries: EntryStore(entries), complete: true))
        return state
    }

    private func draw(_ state: BrowserState, keys: KeyMap = .standard) -> String {
        let screen = RecordingScreen(rows: state.layout.rows, columns: state.layout.columns)
        let drawer = PictureDrawer(driver: nil, cell: CellSize(width: 10, height: 20), encoder: PictureEncoder(inbox: Inbox()))
        let view = BrowserView(screen: screen, theme: .builtIn, lsColors: LSColors(nil), keys: keys, drawer: drawer)
        view.store.storeText(TextPage(path: "/home/me/photos/notes.txt", first: 0, lines: [StyledLine(plain: "first line"), StyledLine(plain: "second line with \\e escaped")], total: 2))
        view.draw(state)
        return screen.snapshot(theme: .builtIn)
    }

    private func check(_ name: String, _ state: BrowserState) throws {
        let drawn = draw(state)
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/\(name).txt")
        if ProcessInfo.processInfo.environment["QLBROWSE_RECORD_SNAPSHOTS"] != nil {
            try drawn.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(drawn == expected, "\(name) differs from Snapshots/\(name).txt; drawn now:\n\(drawn)")
    }

    @Test func theListWithItsPreviewPane() throws {
        var state = state(columns: 100)
        state.apply(.navigation(.moveDown(1)))
        state.apply(.files(.toggleMark))
        state.apply(.showMessage("sorted by name"))
        try check("list-preview", state)
    }

    @Test func theListOnANarrowScreen() throws { try check("list-narrow", state(columns: 50)) }

    @Test func theGrid() throws {
        var state = state()
        state.apply(.display(.toggleView))
        state.apply(.navigation(.moveRight))
        try check("grid", state)
    }

    @Test func quickLookOnATextFile() throws {
        var state = state()
        state.apply(.navigation(.moveDown(5)))
        state.apply(.quickLook(.open))
        try check("quicklook-text", state)
    }

    @Test func theHelpAt80x24() throws {
        var state = state()
        state.apply(.screen(.help))
        try check("help", state)
    }

    /// Issue 23: at 80×24 the help cut almost every description and dropped the Quick Look notes:
    /// now one column of whole lines, in pages.
    @Test func theHelpAt80x24TurnsPages() throws {
        var state = state()
        state.apply(.screen(.help))
        state.apply(.navigation(.pageDown))
        try check("help-page2", state)
        state.apply(.navigation(.pageDown))
        try check("help-page3", state)
    }

    /// At 120×36 all of the help shows at once, nothing cut.
    @Test func theHelpAt120x36() throws {
        var state = state(rows: 36, columns: 120)
        state.apply(.screen(.help))
        try check("help-120", state)
    }

    /// Issue 23: at 120 columns the name column showed ~23 characters, so names that differ at
    /// the end could not be told apart: the date gives way and long names lose their middle.
    @Test func longNamesAt120Columns() throws {
        let day = 1_790_000_000
        let names = ["exifsamples__HMD_Nokia_8.3_5G.jpg", "exifsamples__HMD_Nokia_8.3_5G_night.jpg", "exifsamples__Canon_EOS_5D_Mark_IV_portrait_mode.jpg"]
        var state = state(rows: 36, columns: 120, more: names.map { Entry(name: $0, size: 3_000_000, modified: day) })
        state.apply(.navigation(.moveDown(3)))
        try check("list-long-names", state)
    }

    /// Issue 23: Quick Look's footer ended "space/Esc clo" at 80 columns. The least needed hints
    /// give way; closing is always there, last.
    @Test func quickLookFooterKeepsTheHintsThatMatterMost() {
        let keys = QuickLookView.keys(.timeline)
        #expect(QuickLookView.footer(keys, extras: "e edit   ", width: 79) == "p play/pause  e edit  ↓/↑ 5 s  ←/→ previous/next  space/Esc close")
        #expect(QuickLookView.footer(keys, extras: "", width: 200)
                == "p play/pause   ↓/↑ 5 s   PgDn/PgUp a tenth   g/G start/end   90 Enter 1:30   ←/→ previous/next   space/Esc close")
        #expect(QuickLookView.footer(keys, extras: "", width: 34) == "←/→ previous/next  space/Esc close")
        #expect(QuickLookView.footer(keys, extras: "", width: 20) == "space/Esc close")
    }

    @Test func theVolumesView() throws {
        var state = state(columns: 100)
        state.apply(.volumes(.toggle))
        state.apply(.capabilitiesFound(mountPoint: "/", VolumeCapabilities.probe(folder: "/nonexistent-qlbrowse", fsType: "ext4", trial: false)))
        try check("volumes", state)
    }

    @Test func theVolumesViewWithADriveNotMountedAndThePasswordPrompt() throws {
        var state = state(columns: 100)
        state.apply(.volumes(.toggle))
        state.apply(.drives(.found([Drive(device: "/dev/sdb1", fsType: "vfat", label: "STICK", uuid: "", size: 16 << 30, isRemovable: true)],
                                   recentServers: ["smb://ann@nas/photos"])))
        state.apply(.key(.special(.end), .move(.bottom)))
        try check("volumes-drive", state)
        state.apply(.volumes(.connect))
        try check("connect-prompt", state)
        state.apply(.prompt(.accept))
        state.apply(.drives(.failed(MountFailure(.wrongPassword, "nas refused the user name or password for photos"), url: "smb://ann@nas/photos")))
        state.apply(.prompt(.input("secret")))
        try check("password-prompt", state)
    }

    @Test func theJobsPanel() throws {
        var state = state(columns: 100)
        var thumbnails = JobStatus(id: 1, folder: "/home/me/photos/2024")
        thumbnails.phase = .running
        thumbnails.total = 200
        thumbnails.generated = 50
        thumbnails.elapsed = 10
        var copy = JobStatus(id: 2, kind: .file(.copy), folder: "/mnt/stick")
        copy.phase = .running
        copy.bytesDone = 1_500_000
        copy.bytesTotal = 6_000_000
        copy.elapsed = 1
        copy.total = 4
        copy.itemsDone = 1
        var stopped = JobStatus(id: 3, folder: "/mnt/share")
        stopped.phase = .interrupted("share on nas was disconnected")
        stopped.total = 10
        stopped.generated = 4
        for job in [thumbnails, copy, stopped] { state.apply(.jobChanged(job)) }
        state.apply(.jobs(.toggle))
        try check("jobs", state)
    }

    @Test func renamingShowsThePromptWithTheSelection() throws {
        var state = state()
        state.apply(.navigation(.moveDown(1)))
        state.apply(.files(.startRename))
        try check("prompt-rename", state)
    }

    @Test func waitingForAStuckVolume() throws {
        var state = state()
        state.apply(.navigation(.open))
        state.apply(.tick(now: 1_000_000_000))
        try check("waiting", state)
    }

    @Test func typingTheFilter() throws {
        var state = state()
        state.apply(.filter(.start))
        state.apply(.filter(.input("n")))
        try check("filter", state)
    }

    @Test func askingBeforeDeletingForGood() throws {
        var state = state()
        state.apply(.navigation(.moveDown(1)))
        state.apply(.files(.deleteMarked))
        try check("confirm-delete", state)
    }
}
