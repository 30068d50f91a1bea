import Testing
@testable import BrowserCore
@testable import FileSystemKit
import ThumbnailKit

/// The rules that moved into the state from the shell: the clock, volumes coming and going, giving
/// up on a stuck volume, what keys mean in each mode, and the work the state asks for by itself.
@Suite struct BrowserRulesTests {
    static let root = Volume(mountPoint: "/", fsType: "ext4", source: "/dev/sda1", device: "8:1", kind: .local, isReadOnly: false, label: "/")
    static let share = Volume(mountPoint: "/mnt/share", fsType: "cifs", source: "//nas/share", device: "0:50", kind: .network, isReadOnly: false, label: "share on nas")

    /// A browser in /home/me (listed) with the root disk and a share mounted.
    private func browsing() -> BrowserState {
        var state = BrowserState(folder: "/home/me", layout: ScreenLayout(rows: 24, columns: 100))
        state.apply(.volumesChanged([.init(volume: Self.root), .init(volume: Self.share)]))
        _ = state.start()
        state.apply(.listed(ticket: state.ticket, entries: EntryStore([Entry(name: "a.jpg"), Entry(name: "b.txt"), Entry(name: "share", isDirectory: true)]), complete: true))
        return state
    }

    private func job(_ id: Int, in folder: String, _ phase: JobStatus.Phase = .running) -> JobStatus {
        var job = JobStatus(id: id, folder: folder)
        job.phase = phase
        job.total = 10
        return job
    }

    @Test func escWhileWaitingKeepsWhatArrivedMeanwhile() {
        var state = browsing()
        state.apply(.jobChanged(job(1, in: "/home/me")))
        let stuckTicket = state.ticket + 1
        // Enter the folder "share" (l: open) and let it hang.
        #expect(state.apply(.key(.character(UInt32(UInt8(ascii: "l"))), .move(.right))) == [.list(folder: "/home/me/share", ticket: stuckTicket)])
        state.apply(.tick(now: 1_000_000_000))
        #expect(state.waitingFor == "/", "silent past the notice: waiting is shown")
        // Meanwhile the job finishes, something is trashed, a volume changes.
        var finished = job(1, in: "/home/me", .finished)
        finished.generated = 10
        state.apply(.jobChanged(finished))
        let trashed = TrashCan.Item(originalPath: "/home/me/old.txt", trashedPath: "/home/me/.local/share/Trash/files/old.txt", infoPath: "/x")
        state.apply(.trashed([trashed]))
        state.apply(.volumesChanged([.init(volume: Self.root)]))
        let abandon = state.apply(.key(.escape, nil))
        #expect(abandon == [.cancelListing], "the listing is given up; the old folder was complete, nothing is listed again")
        #expect(state.folder == "/home/me" && state.selected?.name == "share" && state.entries.count == 3, "navigation comes back")
        #expect(state.jobs.first?.phase == .finished, "a job that finished during the wait stays finished")
        #expect(state.lastTrashed == [trashed] && state.volumes.count == 1, "the trash and the volume change are kept")
        #expect(state.waitingFor == nil && state.message == "stopped waiting for /")
        // A late answer of the abandoned listing is dropped; the next listing gets a new ticket.
        state.apply(.listed(ticket: stuckTicket, entries: EntryStore([Entry(name: "late")]), complete: true))
        #expect(state.entries.map(\.name) == ["share", "a.jpg", "b.txt"])
        #expect(state.apply(.navigation(.open)) == [.list(folder: "/home/me/share", ticket: stuckTicket + 2)])
    }

    @Test func escWhileWaitingListsAgainAFolderLeftHalfListed() {
        var state = BrowserState(folder: "/home/me", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.apply(.listed(ticket: 1, entries: EntryStore([Entry(name: "dir", isDirectory: true)]), complete: false))
        state.apply(.navigation(.open))
        state.apply(.tick(now: 400_000_000))
        #expect(state.apply(.volumes(.abandonWaiting)) == [.cancelListing, .list(folder: "/home/me", ticket: 3)])
        #expect(state.folder == "/home/me" && !state.listingComplete)
    }

    @Test func theClockNoticesAStalledListingAndTheSpinnerTurns() {
        var state = BrowserState(folder: "/mnt/share/x", layout: ScreenLayout(rows: 24, columns: 100))
        state.apply(.volumesChanged([.init(volume: Self.root), .init(volume: Self.share)]))
        state.apply(.tick(now: 1_000))
        _ = state.start()
        state.apply(.tick(now: 200_000_000))
        #expect(state.waitingFor == nil, "not yet")
        state.apply(.tick(now: 400_000_000))
        #expect(state.waitingFor == "share on nas")
        let frame = state.spinnerFrame
        state.apply(.tick(now: 500_000_000))
        #expect(state.spinnerFrame == frame + 1)
        state.apply(.listed(ticket: state.ticket, entries: EntryStore([Entry(name: "a")]), complete: false))
        #expect(state.waitingFor == nil)
        state.apply(.tick(now: 600_000_000))
        #expect(state.waitingFor == nil, "it delivered 100 ms ago")
    }

    @Test func aVolumeThatLeavesStopsItsJobsOnceAndTakesTheUserOff() {
        var state = BrowserState(folder: "/mnt/share/2024", layout: ScreenLayout(rows: 24, columns: 100))
        state.apply(.volumesChanged([.init(volume: Self.root), .init(volume: Self.share)]))
        _ = state.start()
        state.apply(.jobChanged(job(1, in: "/mnt/share/2024")))
        state.apply(.jobChanged(job(2, in: "/home/me")))
        let effects = state.apply(.volumesChanged([.init(volume: Self.root)]))
        #expect(effects == [.stopJob(id: 1, reason: "share on nas was disconnected"), .list(folder: "/mnt", ticket: 2)])
        #expect(state.folder == "/mnt" && state.banner == "share on nas was disconnected")
    }

    @Test func aVolumeFoundDeadByBackgroundWorkOrTheListingIsLeft() {
        var state = BrowserState(folder: "/mnt/share", layout: ScreenLayout(rows: 24, columns: 100))
        state.apply(.volumesChanged([.init(volume: Self.root), .init(volume: Self.share)]))
        _ = state.start()
        #expect(state.apply(.volumeLost(mountPoint: "/elsewhere")).isEmpty)
        #expect(state.apply(.volumeLost(mountPoint: "/mnt/share")) == [.list(folder: "/mnt", ticket: 2)])
        var listing = BrowserState(folder: "/mnt/share", layout: ScreenLayout(rows: 24, columns: 100))
        listing.apply(.volumesChanged([.init(volume: Self.root), .init(volume: Self.share)]))
        _ = listing.start()
        #expect(listing.apply(.listingLostVolume(ticket: 0)).isEmpty, "an old listing's news")
        #expect(listing.apply(.listingLostVolume(ticket: 1)) == [.list(folder: "/mnt", ticket: 2)])
    }

    @Test func theStateAsksForTextAndVolumeFactsItself() {
        var state = browsing()
        state.apply(.navigation(.end))
        #expect(state.apply(.quickLook(.open)) == [.readText(path: "/home/me/b.txt", line: 0, count: 21)])
        #expect(state.apply(.navigation(.moveLeft)).isEmpty, "a.jpg is no text")
        state.apply(.screen(.closeOverlay))
        #expect(state.apply(.volumes(.toggle)) == [.probeCapabilities(Self.root)])
        #expect(state.apply(.navigation(.moveDown(1))) == [.probeCapabilities(Self.share)])
        #expect(state.apply(.navigation(.moveUp(1))).isEmpty, "asked once")
    }

    @Test func keysMeanWhatTheModeSays() {
        var state = browsing()
        var copy = JobStatus(id: 7, kind: .file(.copy), folder: "/home/me")
        copy.phase = .running
        state.apply(.jobChanged(copy))
        state.apply(.jobChanged(job(8, in: "/home/me")))
        state.apply(.jobs(.toggle))
        #expect(state.intention(for: .screen(.quickLook)) == .jobs(.togglePause), "in the jobs panel the Quick Look key pauses")
        #expect(state.apply(.jobs(.togglePause)).isEmpty, "a thumbnail job does not pause")
        state.apply(.navigation(.moveUp(1)))
        #expect(state.apply(.jobs(.togglePause)) == [.pauseJob(id: 7, paused: true)])
        state.apply(.screen(.closeOverlay))
        // Renaming from Quick Look: the prompt replaces Quick Look, it is not typed into unseen.
        state.apply(.quickLook(.open))
        state.apply(.key(.character(UInt32(UInt8(ascii: "r"))), .files(.rename)))
        #expect(state.overlay == nil && state.prompt != nil)
        state.apply(.key(.special(.end), nil))
        state.apply(.key(.character(UInt32(UInt8(ascii: "x"))), .files(.cut)))
        #expect(state.prompt?.text == "sharex", "End goes to the end; letters are text, not commands")
        state.apply(.key(.special(.home), nil))
        #expect(state.prompt?.cursor == 0)
        state.apply(.key(.escape, nil))
        #expect(state.mode == .browsing)
    }
}

@Suite struct DisplayFormatTests {
    @Test func sizesAreWrittenOneWayEverywhere() {
        #expect(DisplayFormat.bytes(812) == "812 B")
        #expect(DisplayFormat.bytes(1_500_000) == "1.5 MB")
        #expect(DisplayFormat.bytes(-1) == "-1 B")
        var job = JobStatus(id: 1, kind: .file(.copy), folder: "/dest")
        job.phase = .running
        job.bytesDone = 1_500_000
        job.bytesTotal = 3_000_000
        job.elapsed = 1
        job.total = 2
        job.itemsDone = 1
        let line = JobText.line(job)
        #expect(line.contains("1.5 MB/3.0 MB") && line.contains("1.5 MB/s") && line.contains("[" + String(repeating: "█", count: 10)) && line.contains("1/2 items"),
                "the jobs panel writes sizes as the reports do: \(line)")
    }

    @Test func durationsBarsAndClipping() {
        #expect(DisplayFormat.duration(42) == "42s" && DisplayFormat.duration(187) == "3m7s" && DisplayFormat.duration(7500) == "2h5m")
        #expect(DisplayFormat.bar(0.5, width: 4) == "[██··] 50%" && DisplayFormat.bar(2, width: 2) == "[██] 100%")
        #expect(DisplayFormat.clip("photograph", to: 6) == "photo…" && DisplayFormat.clip("ok", to: 6) == "ok")
        #expect(DisplayFormat.pad("ab", to: 4) == "ab  " && DisplayFormat.pad("abcdef", to: 4) == "abcd")
        // Long names lose their middle: the end (a model, a counter) and the extension stay.
        #expect(DisplayFormat.elideMiddle("exifsamples__HMD_Nokia_8.3_5G.jpg", to: 22) == "exifsample…_8.3_5G.jpg")
        #expect(DisplayFormat.elideMiddle("exifsamples__HMD_Nokia_8.3_5G.jpg", to: 22).count == 22)
        #expect(DisplayFormat.elideMiddle("short.jpg", to: 22) == "short.jpg")
        #expect(DisplayFormat.elideMiddle("IMG_20240101_123456.jpeg", to: 12) == "IMG_2…6.jpeg")
        #expect(DisplayFormat.elideMiddle("abcdefgh", to: 3) == "ab…")
        #expect(DisplayFormat.oneDecimal(2.46) == "2.5")
    }

    @Test func jobsInTheStatusLineAndWhenTheyEnd() {
        var thumbnails = JobStatus(id: 1, folder: "/home/me/photos")
        thumbnails.phase = .running
        thumbnails.total = 260
        thumbnails.generated = 117
        var move = JobStatus(id: 2, kind: .file(.move), folder: "/dest")
        move.phase = .running
        move.isPaused = true
        #expect(JobText.statusNote([thumbnails]) == "T 45% 117/260")
        #expect(JobText.statusNote([thumbnails, move]) == "move … paused +1")
        #expect(JobText.statusNote([]) == nil)
        thumbnails.phase = .interrupted("photos was disconnected")
        #expect(JobText.ending(thumbnails) == "photos was disconnected: photos stopped with 117 done, 143 not done (J)")
        var trash = JobStatus(id: 3, kind: .file(.trash), folder: "/home/me")
        trash.phase = .finished
        trash.detail = "2 done"
        #expect(JobText.ending(trash) == "trashed: 2 done · U restores")
    }

    @Test func aThumbnailJobSaysWhatItCouldNotStoreOrList() {
        var job = JobStatus(id: 4, folder: "/home/me/photos")
        job.phase = .finished
        job.total = 10
        job.generated = 3
        job.failed = 7
        job.foldersNotListed = 2
        #expect(job.report == "3 made, 0 already cached, 7 failed, 2 folders could not be read")
    }
}

@Suite struct QuickLookPositionTests {
    private func quickLook(_ name: String) -> BrowserState { BrowserState.quickLook(on: name) }

    @Test func pagesStepJumpAndStayInside() {
        var state = quickLook("book.pdf")
        #expect(state.quickLookContent == .pages)
        state.apply(.key(.special(.down), .move(.down)))
        state.apply(.key(.special(.pageDown), .move(.pageDown)))
        #expect(state.quickLook.page == 2)
        state.apply(.quickLookFacts(path: "/d/book.pdf", QuickLookFacts(pageCount: 1008)))
        for digit in "500" { state.apply(.key(.character(digit.unicodeScalars.first!.value), nil)) }
        #expect(state.quickLook.jump == "500")
        state.apply(.key(.character(13), .move(.open)))
        #expect(state.quickLook.page == 499 && state.overlay == .quickLook, "Enter with digits jumps and does not close")
        state.apply(.key(.character(UInt32(UInt8(ascii: "G"))), .move(.bottom)))
        #expect(state.quickLook.page == 1007)
        state.apply(.quickLook(.step(5)))
        #expect(state.quickLook.page == 1007, "not past the last page")
        state.apply(.key(.special(.right), .move(.right)))
        #expect(state.selected?.name == "z.txt" && state.quickLook == .text(.init()), "→ is the next file, which starts at its top")
    }

    @Test func textScrollsByLineAndScreenAndSettlesAtTheEnd() {
        var state = quickLook("log.txt")
        #expect(state.quickLookRows == 20)
        state.apply(.quickLook(.page(1)))
        #expect(state.quickLook.line == 19)
        #expect(state.apply(.quickLook(.edge(last: true))) == [.readText(path: "/d/log.txt", line: QuickLookPosition.end, count: 20)])
        state.apply(.quickLookFacts(path: "/d/other.txt", QuickLookFacts(lineCount: 5, firstLine: 0)))
        #expect(state.quickLook.line == QuickLookPosition.end, "another file's news changes nothing")
        state.apply(.quickLookFacts(path: "/d/log.txt", QuickLookFacts(lineCount: 1000, firstLine: 980)))
        #expect(state.quickLook.line == 980 && state.quickLook.lineCount == 1000)
        state.apply(.quickLook(.step(1)))
        #expect(state.quickLook.line == 980, "the last screen is the end")
        state.apply(.key(.character(UInt32(UInt8(ascii: "w"))), .files(.cut)))
        #expect(!state.quickLook.wraps)
    }

    @Test func photosZoomAndPanWhileLettersStillMeanFilesOtherwise() {
        var state = quickLook("photo.jpg")
        state.apply(.key(.character(UInt32(UInt8(ascii: "+"))), nil))
        state.apply(.key(.character(UInt32(UInt8(ascii: "+"))), nil))
        #expect(state.quickLook.zoom == 4)
        state.apply(.key(.character(UInt32(UInt8(ascii: "l"))), .move(.right)))
        #expect(state.selected?.name == "photo.jpg" && state.quickLook.centerX > 0.5, "l pans while zoomed")
        for _ in 0..<20 { state.apply(.quickLook(.pan(x: 1, y: 1))) }
        #expect(state.quickLook.centerX == 1 - 0.125 && state.quickLook.centerY == 1 - 0.125, "the centre stays on the picture")
        state.apply(.quickLook(.zoom(-2)))
        #expect(state.quickLook.zoom == 1 && state.quickLook.centerX == 0.5)
        state.apply(.key(.character(UInt32(UInt8(ascii: "l"))), .move(.right)))
        #expect(state.selected?.name == "z.txt", "not zoomed, l is the next file again")
        #expect(state.intention(for: .character(UInt32(UInt8(ascii: "+"))), nil) == nil, "text does not zoom")
    }

    @Test func containersShowTheirMembersAKeyAway() {
        var state = quickLook("novel.epub")
        #expect(state.quickLookContent == .picture)
        state.apply(.key(.character(UInt32(UInt8(ascii: "m"))), .files(.mark)))
        #expect(state.quickLookContent == .members && state.marked.isEmpty, "m lists, it does not mark, on an EPUB")
        state.apply(.key(.special(.right), .move(.right)))
        #expect(state.quickLookContent == .text && !state.quickLook.showsMembers, "the next file starts over")
    }

    @Test func aPNGOrWebPPlaysOnceTheWorkerFindsFramesAndLoops() {
        var state = quickLook("dance.png")
        #expect(state.quickLookContent == .picture && !state.quickLook.playing, "most PNGs are still")
        state.apply(.quickLookFacts(path: "/d/dance.png", QuickLookFacts(duration: 1.5)))
        #expect(state.quickLookContent == .timeline && state.quickLook.playing && state.quickLook.loops)
        state.apply(.tick(now: 1_000_000_000))
        state.apply(.tick(now: 2_200_000_000))
        #expect(abs(state.quickLook.seconds - 1.2) < 1e-9)
        state.apply(.quickLookFacts(path: "/d/dance.png", QuickLookFacts(duration: 1.5)))
        #expect(abs(state.quickLook.seconds - 1.2) < 1e-9, "a frame's news does not pull a loop back from its last half second")
        state.apply(.tick(now: 2_700_000_000))
        #expect(abs(state.quickLook.seconds - 0.2) < 1e-6, "past the end it starts over")
        state.apply(.key(.special(.right), .move(.right)))
        state.apply(.key(.special(.left), .move(.left)))
        #expect(state.quickLookContent == .picture && !state.quickLook.playing, "shown again, it waits for the worker again")
    }

    @Test func aPhotoWithALengthStaysStill() {
        var state = quickLook("photo.jpg")
        state.apply(.quickLookFacts(path: "/d/photo.jpg", QuickLookFacts(duration: 3)))
        #expect(state.quickLookContent == .picture && !state.quickLook.playing)
    }

    @Test func videosSeekFineAndCoarse() {
        var state = quickLook("clip.mp4")
        state.apply(.quickLookFacts(path: "/d/clip.mp4", QuickLookFacts(duration: 600)))
        state.apply(.quickLook(.step(1)))
        #expect(state.quickLook.seconds == 5)
        state.apply(.quickLook(.page(1)))
        #expect(state.quickLook.seconds == 65)
        state.apply(.quickLook(.page(-3)))
        #expect(state.quickLook.seconds == 0)
    }
}

extension BrowserState {
    /// Quick Look open on `name` in /d (listed with z.txt after it), at 80×23.
    static func quickLook(on name: String) -> BrowserState {
        var state = BrowserState(folder: "/d", layout: ScreenLayout(rows: 23, columns: 80))
        _ = state.start()
        state.apply(.listed(ticket: 1, entries: EntryStore([Entry(name: name), Entry(name: "z.txt")]), complete: true))
        state.apply(.quickLook(.open))
        return state
    }
}
