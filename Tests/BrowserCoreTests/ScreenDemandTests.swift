@testable import BrowserCore
import FileSystemKit
import Testing

/// What the screen needs, said by the state alone: Quick Look's text, members, lengths and
/// previewers, and which volumes are asked nothing.
@Suite struct ScreenDemandTests {
    private func quickLook(on name: String, in names: [String], rows: Int = 20) -> BrowserState {
        var state = BrowserState(folder: "/home/me", layout: ScreenLayout(rows: rows, columns: 100))
        _ = state.start()
        state.apply(.listed(ticket: 1, entries: EntryStore(names.map { Entry(name: $0, size: 10) }), complete: true))
        while state.selected?.name != name { state.apply(.navigation(.moveDown(1))) }
        state.apply(.quickLook(.open))
        return state
    }

    private let names = ["a.zip", "b.txt", "c.mp3", "d.png", "e.mp4", "f.jpg", "g.pdf"]

    @Test func nothingIsNeededOutsideQuickLook() {
        var state = quickLook(on: "b.txt", in: names)
        state.apply(.screen(.closeOverlay))
        #expect(state.overlay == nil)
        #expect(ScreenDemand.of(state).needs.isEmpty)
    }

    @Test func aTextFileNeedsItsLinesAroundTheScreen() {
        let state = quickLook(on: "b.txt", in: names)
        let rows = state.quickLookRows
        #expect(ScreenDemand.of(state).needs == [
            .previewer(path: "/home/me/b.txt", hasBuiltIn: true),
            .text(path: "/home/me/b.txt", first: 0, count: rows * 4, rows: rows, shown: 0..<rows, volume: "/"),
        ])
    }

    @Test func theEndOfATextFileIsAskedWithoutKnowingItsLines() {
        var state = quickLook(on: "b.txt", in: names)
        state.apply(.quickLook(.edge(last: true)))
        guard case .text(_, let first, _, _, let shown, _)? = ScreenDemand.of(state).needs.last else {
            Issue.record("no text need")
            return
        }
        #expect(first >= QuickLookPosition.end && shown == nil)
    }

    @Test func eachContentNeedsWhatShowsIt() {
        #expect(ScreenDemand.of(quickLook(on: "a.zip", in: names)).needs.last == .members(path: "/home/me/a.zip"))
        // A song's length, once: a length known is not asked again.
        var song = quickLook(on: "c.mp3", in: names)
        #expect(ScreenDemand.of(song).needs.last == .mediaFacts(path: "/home/me/c.mp3"))
        song.apply(.quickLookFacts(path: "/home/me/c.mp3", QuickLookFacts(duration: 200)))
        #expect(ScreenDemand.of(song).needs == [.previewer(path: "/home/me/c.mp3", hasBuiltIn: true)])
        // A PNG may be an animation: the worker is asked.
        #expect(ScreenDemand.of(quickLook(on: "d.png", in: names)).needs.last == .mediaFacts(path: "/home/me/d.png"))
        // A JPEG may be a Motion Photo: asked too.
        #expect(ScreenDemand.of(quickLook(on: "f.jpg", in: names)).needs.last == .mediaFacts(path: "/home/me/f.jpg"))
        // A video's frames tell its length; a PDF's pages are pictures: nothing but the previewer.
        #expect(ScreenDemand.of(quickLook(on: "e.mp4", in: names)).needs == [.previewer(path: "/home/me/e.mp4", hasBuiltIn: true)])
        #expect(ScreenDemand.of(quickLook(on: "g.pdf", in: names)).needs == [.previewer(path: "/home/me/g.pdf", hasBuiltIn: true)])
    }

    @Test func aCustomPreviewersTextReplacesTheFilesOwn() {
        var state = quickLook(on: "b.txt", in: names)
        state.apply(.quickLookFacts(path: "/home/me/b.txt", QuickLookFacts(custom: .text)))
        #expect(ScreenDemand.of(state).needs.last == .previewerText(path: "/home/me/b.txt", columns: 94, rows: state.quickLookRows))
    }

    @Test func silentSticksAndSharesAreAskedNothingButSlowDisksAre() {
        func volume(_ mountPoint: String, _ kind: Volume.Kind, responding: Bool) -> VolumeMonitor.Status {
            VolumeMonitor.Status(volume: Volume(mountPoint: mountPoint, fsType: "ext4", source: "", device: "", kind: kind, isReadOnly: false,
                                                label: mountPoint), isResponding: responding)
        }
        var inputs = ScreenDemand.Inputs()
        inputs.volumes = [volume("/", .local, responding: false), volume("/media/stick", .removable, responding: false),
                          volume("/mnt/share", .network, responding: true)]
        let demand = ScreenDemand.of(inputs)
        #expect(demand.silentVolumes == ["/media/stick"])
        #expect(!demand.mayAsk(about: "/media/stick/DCIM/a.jpg"))
        #expect(demand.mayAsk(about: "/home/me/a.jpg"))
        #expect(demand.mayAsk(about: "/mnt/share/a.jpg"))
        #expect(demand.volume(of: "/media/stick/DCIM/a.jpg") == "/media/stick")
    }
}
