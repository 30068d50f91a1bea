import Testing
import TerminalGraphics
import ThumbnailKit
@testable import BrowserUI

#if canImport(Glibc)
import Glibc
#endif

@Suite struct PictureEncoderTests {
    private func job(_ id: String, side: Int = 64) -> PictureEncoder.Job {
        let image = PixelImage(width: side, height: side, filledWith: RGBA(200, 40, 40))
        return .init(id: id, image: image, driver: SymbolsDriver(cell: CellSize(width: 8, height: 16), colors: 256), columns: 40, rows: 20, imageID: 0)
    }

    /// Drains the inbox until `done` says enough, or two seconds pass; returns the encoded ids.
    private func collect(_ inbox: Inbox, until done: ([String]) -> Bool) -> [String] {
        var ids: [String] = []
        for _ in 0..<200 {
            if done(ids) { break }
            usleep(10_000)
            for case .encoded(let id, _) in inbox.drain() { ids.append(id) }
        }
        return ids
    }

    @Test func anEncodedPictureComesBackThroughTheInbox() {
        let inbox = Inbox()
        let encoder = PictureEncoder(inbox: inbox)
        encoder.request(job("a"))
        var art: TerminalPicture?
        for _ in 0..<200 {
            if art != nil { break }
            usleep(10_000)
            for case .encoded("a", let picture) in inbox.drain() { art = picture }
        }
        #expect(art.map { $0.columns > 0 && $0.rows > 0 && !$0.isEmpty } == true)
    }

    @Test func picturesNoLongerWantedAreSkippedAndEachIsEncodedOnce() {
        let inbox = Inbox()
        let encoder = PictureEncoder(inbox: inbox)
        // Twenty large pictures asked for, then the screen moves on and wants only the last one.
        let jobs = (0..<20).map { job("p\($0)", side: 400) }
        for job in jobs { encoder.request(job) }
        for job in jobs { encoder.request(job) }  // asked again by the next frame: not queued twice
        encoder.keepOnly(["p19"])
        let ids = collect(inbox) { $0.contains("p19") }
        #expect(ids.contains("p19"))
        #expect(ids.count < 20, "skipped ones were encoded anyway: \(ids)")
        #expect(Set(ids).count == ids.count)
    }
}
