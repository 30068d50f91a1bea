import Foundation
import Synchronization
import Testing
import ThumbnailKit

/// The order a busy pool serves what waits: an embedded preview (a cheap request) before a full
/// decode that came earlier, so a screen of photos on a slow share shows every tile's preview first.
@Suite struct WorkerPoolOrderTests {
    /// Waits until `condition` holds (a hang guard of a minute, not a timing).
    private func until(_ what: String, _ condition: @Sendable () async -> Bool) async throws {
        let deadline = Date().addingTimeInterval(60)
        while !(await condition()) {
            guard Date() < deadline else {
                Issue.record("never: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func anEmbeddedPreviewWaitingIsServedBeforeAFullDecodeThatCameFirst() async throws {
        // No deadline or CPU limit to end the huge decode early on a busy machine (CI's 10 s deadline
        // passed before the third request was queued): it ends when it is cancelled below.
        let pool = WorkerPool(size: 1, executable: TestEnvironment.thumbnailer,
                              limits: WorkerLimits(deadlineSeconds: 600, cpuSeconds: 600))
        let huge = TestEnvironment.largeFixtures.appendingPathComponent("huge-20000.png").path
        let photo = TestEnvironment.fixtures.appendingPathComponent("with-exif-thumb.jpg").path
        let box = PixelSize(width: 128, height: 128)
        let served = Mutex<[String]>([])
        // The one worker decodes 400 megapixels meanwhile; the two requests below wait in the
        // queue, the full decode first (each step waits until the pool says so: on a busy machine
        // a request's way into the queue takes its time).
        let busy = Task { @Sendable in for try await _ in pool.run(path: huge, box: box, types: [.thumbnail], contentType: nil) {} }
        try await until("the worker is at the huge decode") { await pool.load == (0, 1) }
        let full = Task { @Sendable in
            for try await _ in pool.run(path: photo, box: box, types: [.thumbnail], contentType: nil) {}
            served.withLock { $0.append("full") }
        }
        try await until("the full decode waits") { await pool.load == (1, 1) }
        let cheap = Task { @Sendable in
            for try await _ in pool.run(path: photo, box: box, types: [.lowQuality], contentType: nil) {}
            served.withLock { $0.append("embedded") }
        }
        try await until("both wait") { await pool.load == (2, 1) }
        busy.cancel()
        _ = await busy.result
        try await full.value
        try await cheap.value
        #expect(served.withLock { $0 } == ["embedded", "full"])
        await pool.shutdown()
    }
}
