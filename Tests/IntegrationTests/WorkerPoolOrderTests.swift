import Foundation
import Synchronization
import Testing
import ThumbnailKit

/// The order a busy pool serves what waits: an embedded preview (a cheap request) before a full
/// decode that came earlier, so a screen of photos on a slow share shows every tile's preview first.
@Suite struct WorkerPoolOrderTests {
    /// Waits until `condition` holds (a hang guard of two minutes, not a timing).
    private func until(_ what: String, state: @Sendable () async -> String = { "" }, _ condition: @Sendable () async -> Bool) async throws {
        let deadline = Date().addingTimeInterval(120)
        while !(await condition()) {
            guard Date() < deadline else {
                Issue.record("never: \(what) \(await state())")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func anEmbeddedPreviewWaitingIsServedBeforeAFullDecodeThatCameFirst() async throws {
        // The one worker reads nothing until the test opens the gate: the first request waits in
        // its input, and the two after it wait in the pool's queue, the full decode first.
        let folder = TestEnvironment.temporaryFolder("qlbrowse-pool-order")
        defer { try? FileManager.default.removeItem(at: folder) }
        let gate = folder.appendingPathComponent("open").path
        let worker = folder.appendingPathComponent("gated-worker.sh").path
        // Written by another process: a file this process had open for writing can be inherited by
        // another test's fork at that moment, and then cannot be run ("text file busy").
        let script = "#!/bin/sh\nwhile [ ! -e '\(gate)' ]; do sleep 0.05; done\nexec '\(TestEnvironment.thumbnailer)' \"$@\"\n"
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "printf '%s' \"$1\" > \"$2\" && chmod 755 \"$2\"", "sh", script, worker]
        try writer.run()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        // No deadline to end the first request while it waits behind the gate on a busy machine.
        let pool = WorkerPool(size: 1, executable: worker, limits: WorkerLimits(deadlineSeconds: 600))
        let photo = TestEnvironment.fixtures.appendingPathComponent("with-exif-thumb.jpg").path
        let box = PixelSize(width: 128, height: 128)
        let served = Mutex<[String]>([])
        func make(_ types: Set<RepresentationType>, _ name: String) -> Task<Void, Error> {
            Task { @Sendable in
                do {
                    for try await _ in pool.run(path: photo, box: box, types: types, contentType: nil) {}
                } catch {
                    served.withLock { $0.append("\(name) failed: \(error)") }
                    throw error
                }
                served.withLock { $0.append(name) }
            }
        }
        let first = make([.thumbnail], "first")
        // CI once never saw the first request held (120 s): what the pool and the first request
        // were then is said.
        let firstState: @Sendable () async -> String = {
            let load = await pool.load
            return "(load: \(load.0) waiting, \(load.1) running; served: \(served.withLock { $0 }))"
        }
        try await until("the worker holds the first request", state: firstState) { await pool.load == (0, 1) }
        let full = make([.thumbnail], "full")
        try await until("the full decode waits") { await pool.load == (1, 1) }
        let cheap = make([.lowQuality], "embedded")
        try await until("both wait") { await pool.load == (2, 1) }
        FileManager.default.createFile(atPath: gate, contents: nil)
        try await first.value
        try await full.value
        try await cheap.value
        #expect(served.withLock { $0 } == ["first", "embedded", "full"])
        await pool.shutdown()
    }
}
