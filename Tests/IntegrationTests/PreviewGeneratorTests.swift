import Foundation
import Testing
import ThumbnailKit

/// Quick Look previews through the real worker: any page of a PDF, a video frame at a time.
@Suite(.serialized) struct PreviewGeneratorTests {
    private func fixture(_ name: String) -> String { TestEnvironment.fixtures.appendingPathComponent(name).path }

    private func withPreviews<T>(_ body: (PreviewGenerator) async throws -> T) async throws -> T {
        let pool = WorkerPool(size: 1, executable: TestEnvironment.thumbnailer)
        defer { Task { await pool.shutdown() } }
        return try await body(PreviewGenerator(pool: pool))
    }

    /// The average difference of two pictures of the same size, 0…255.
    static func difference(_ a: PixelImage, _ b: PixelImage) -> Double {
        guard a.size == b.size else { return 255 }
        var total = 0
        for index in stride(from: 0, to: a.pixels.count, by: 4) {
            for channel in 0..<3 { total += abs(Int(a.pixels[index + channel]) - Int(b.pixels[index + channel])) }
        }
        return Double(total) / Double(a.pixels.count / 4 * 3)
    }

    @Test func pageSevenOfTwelveIsRenderedAtTheBoxSizeAndDiffersFromPageOne() async throws {
        try await withPreviews { previews in
            let box = PixelSize(width: 1400, height: 900)
            let first = try await previews.page(path: fixture("pages12.pdf"), index: 0, box: box)
            let seventh = try await previews.page(path: fixture("pages12.pdf"), index: 6, box: box)
            #expect(first.pageCount == 12 && seventh.pageCount == 12)
            #expect(seventh.index == 6)
            // Letter pages (612×792 pt) enlarged to the box's height: drawn at that size, not scaled up.
            #expect(seventh.image.size == PixelSize(width: 695, height: 900))
            let band = (x: seventh.image.width / 2, y: seventh.image.height / 8)
            #expect(first.image.pixel(x: band.x, y: band.y) != seventh.image.pixel(x: band.x, y: band.y))
            #expect(Self.difference(first.image, seventh.image) > 5)
        }
    }

    @Test func aPageIndexPastTheEndShowsTheLastPage() async throws {
        try await withPreviews { previews in
            let last = try await previews.page(path: fixture("pages12.pdf"), index: 500, box: PixelSize(width: 200, height: 200))
            #expect(last.index == 11 && last.pageCount == 12)
            let red = try await previews.page(path: fixture("doc.pdf"), index: .max, box: PixelSize(width: 200, height: 200))
            #expect(red.index == 1 && red.pageCount == 2)
            // The page's size in points as shown comes with it (Markup measures marks in it); a turned page's is turned.
            #expect(red.points == PixelSize(width: 612, height: 792))
            let folder = TestEnvironment.temporaryFolder("qlbrowse-page-points")
            defer { try? FileManager.default.removeItem(at: folder) }
            let turned = folder.appendingPathComponent("turned.pdf").path
            _ = TestEnvironment.run("/usr/bin/qpdf", ["--rotate=+90:2", fixture("doc.pdf"), turned])
            let second = try await previews.page(path: turned, index: 1, box: PixelSize(width: 200, height: 200))
            #expect(second.points == PixelSize(width: 792, height: 612) && second.image.width > second.image.height)
        }
    }

    @Test func anEncryptedPDFGivesTheThumbnailersClearError() async throws {
        try await withPreviews { previews in
            do {
                _ = try await previews.page(path: fixture("encrypted.pdf"), index: 1, box: PixelSize(width: 300, height: 300))
                Issue.record("an encrypted PDF was rendered")
            } catch let error as ThumbnailError {
                #expect(error.code == .encrypted)
                #expect(error.reason == "the PDF is encrypted and needs a password")
            }
        }
    }

    @Test func aFrameAtTenSecondsDiffersFromTheFirstAndTheDurationIsKnown() async throws {
        try await withPreviews { previews in
            let box = PixelSize(width: 640, height: 360)
            let start = try await previews.frame(path: fixture("long-1080p.mp4"), seconds: 0, box: box)
            let middle = try await previews.frame(path: fixture("long-1080p.mp4"), seconds: 10, box: box)
            #expect(start.image.size == box && middle.image.size == box)
            #expect(abs((middle.duration ?? 0) - 20) < 0.2, "duration \(String(describing: middle.duration))")
            #expect(start.shownSeconds < 0.05)
            #expect(middle.shownSeconds > 9.5 && middle.shownSeconds <= 10.05, "shown at \(middle.shownSeconds)")
            #expect(Self.difference(start.image, middle.image) > 1)
            // Past the end: the last frames, not an error.
            let end = try await previews.frame(path: fixture("long-1080p.mp4"), seconds: 99, box: box)
            #expect(end.shownSeconds > 10 && end.shownSeconds < 20)
        }
    }

    @Test func audioHasADurationAndNoFrame() async throws {
        try await withPreviews { previews in
            let facts = try await previews.mediaFacts(path: fixture("tone.wav"))
            #expect(abs((facts.duration ?? 0) - 2) < 0.1 && !facts.hasVideo)
            let video = try await previews.mediaFacts(path: fixture("clip.mp4"))
            #expect(abs((video.duration ?? 0) - 5) < 0.2 && video.hasVideo)
            await #expect(throws: ThumbnailError.self) {
                _ = try await previews.frame(path: fixture("tone.wav"), seconds: 1, box: PixelSize(width: 100, height: 100))
            }
        }
    }

    @Test func cancellingAPreviewReturnsPromptlyAndThePoolStaysUsable() async throws {
        try await withPreviews { previews in
            let path = fixture("long-1080p.mp4")
            for delay in [0, 30, 80] {
                let task = Task { try await previews.frame(path: path, seconds: 7, box: PixelSize(width: 1920, height: 1080)) }
                try await Task.sleep(nanoseconds: UInt64(delay) * 1_000_000)
                let clock = ContinuousClock()
                let start = clock.now
                task.cancel()
                let outcome = await task.result
                let elapsed = clock.now - start
                print("cancelling a frame request after \(delay) ms: \(outcome), returned after \(elapsed)")
                // A frame takes under 200 ms to make; a cancel that waited for the worker's deadline
                // (10 s) is what this catches, with room for a busy machine (3 s were seen in CI).
                #expect(elapsed < .seconds(5), "cancel after \(delay) ms took \(elapsed)")
                if case .failure(let error) = outcome { #expect(error is CancellationError, "\(error)") }
            }
            let page = try await previews.page(path: fixture("doc.pdf"), index: 1, box: PixelSize(width: 100, height: 100))
            #expect(page.index == 1)
        }
    }
}
