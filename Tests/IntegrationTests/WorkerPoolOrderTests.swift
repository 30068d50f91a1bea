import Foundation
import Synchronization
import Testing
import ThumbnailKit

/// The order a busy pool serves what waits: an embedded preview (a cheap request) before a full
/// decode that came earlier, so a screen of photos on a slow share shows every tile's preview first.
@Suite struct WorkerPoolOrderTests {
    @Test func anEmbeddedPreviewWaitingIsServedBeforeAFullDecodeThatCameFirst() async throws {
        let pool = WorkerPool(size: 1, executable: TestEnvironment.thumbnailer)
        let huge = TestEnvironment.largeFixtures.appendingPathComponent("huge-20000.png").path
        let photo = TestEnvironment.fixtures.appendingPathComponent("with-exif-thumb.jpg").path
        let box = PixelSize(width: 128, height: 128)
        let served = Mutex<[String]>([])
        // The one worker decodes 400 megapixels meanwhile: both requests below wait in the queue.
        let busy = Task { @Sendable in for try await _ in pool.run(path: huge, box: box, types: [.thumbnail], contentType: nil) {} }
        try await Task.sleep(for: .milliseconds(300))
        let full = Task { @Sendable in
            for try await _ in pool.run(path: photo, box: box, types: [.thumbnail], contentType: nil) {}
            served.withLock { $0.append("full") }
        }
        try await Task.sleep(for: .milliseconds(200))
        let cheap = Task { @Sendable in
            for try await _ in pool.run(path: photo, box: box, types: [.lowQuality], contentType: nil) {}
            served.withLock { $0.append("embedded") }
        }
        try await Task.sleep(for: .milliseconds(200))
        busy.cancel()
        _ = await busy.result
        try await full.value
        try await cheap.value
        #expect(served.withLock { $0 } == ["embedded", "full"])
        await pool.shutdown()
    }
}
