import Foundation
import Testing
import ThumbnailKit

/// A decoder that crashes, hangs or is cancelled costs one file, never the caller.
@Suite(.serialized) struct WorkerIsolationTests {
    /// A stand-in worker: a shell script that misbehaves on purpose.
    private func fakeWorker(_ body: String) throws -> String {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-fake-worker")
        let path = folder.appendingPathComponent("worker.sh").path
        try TestEnvironment.writeFile("#!/bin/sh\n\(body)\n", to: path)
        return path
    }

    @Test func aCrashingDecoderFailsOnlyItsFileWithTheReason() throws {
        // It crashes once the request is in its pipe. One that died while the request was still
        // being written would be reported as a worker that exits as soon as it starts.
        let worker = try fakeWorker("sleep 0.2; kill -SEGV $$")
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let files = ["landscape.jpg", "clip.mp4"].map { TestEnvironment.fixtures.appendingPathComponent($0).path }
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--json", "-o", out.path] + files,
                                         environment: ["QLBROWSE_THUMBNAILER": worker])
        #expect(result.status == 1)
        let lines = TestEnvironment.jsonLines(result.stdout)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { ($0["error"] as? String)?.contains("crashed (segmentation fault)") == true }, "\(lines)")
    }

    @Test func aHangingDecoderIsStoppedAtTheDeadline() throws {
        let worker = try fakeWorker("exec sleep 600")
        let out = TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let file = TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path
        let result = TestEnvironment.run(TestEnvironment.qlbrowse, ["thumbnail", "--timeout", "1", "--json", "-o", out.path, file],
                                         environment: ["QLBROWSE_THUMBNAILER": worker])
        #expect(result.status == 1)
        let line = try #require(TestEnvironment.jsonLines(result.stdout).first)
        #expect((line["error"] as? String)?.contains("gave up") == true, "\(line)")
        #expect(result.seconds < 5)
    }

    @Test func theRealWorkerSurvivesTheNextFileAfterAFailure() async throws {
        let pool = WorkerPool(size: 1, executable: TestEnvironment.thumbnailer)
        let generator = ThumbnailGenerator(pool: pool)
        let broken = ThumbnailRequest(path: TestEnvironment.fixtures.appendingPathComponent("garbage.png").path, types: [.thumbnail])
        _ = try? await generator.bestRepresentation(for: broken)
        let good = ThumbnailRequest(path: TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path, size: 64, types: [.thumbnail])
        let best = try await generator.bestRepresentation(for: good)
        #expect(best.image.size == PixelSize(width: 64, height: 48))
        await pool.shutdown()
    }

    @Test func cancellingAHugeDecodeReturnsPromptlyAndTheWorkerStaysUsable() async throws {
        let huge = TestEnvironment.largeFixtures.appendingPathComponent("huge-20000.png").path
        // A deadline far beyond the bound below, so that "returned on the cancel" is never "the
        // deadline ended the decode" (CI once took 10 s to resume the caller, the default deadline).
        let pool = WorkerPool(size: 1, executable: TestEnvironment.thumbnailer, limits: WorkerLimits(deadlineSeconds: 90))
        let generator = ThumbnailGenerator(pool: pool)
        let request = ThumbnailRequest(path: huge, types: [.thumbnail])
        let task = Task { try await generator.bestRepresentation(for: request) }
        try await Task.sleep(nanoseconds: 700_000_000)  // well into the decode
        let clock = ContinuousClock()
        let start = clock.now
        generator.cancel(request)
        let outcome = await task.result
        let elapsed = clock.now - start
        #expect(throws: CancellationError.self) { try outcome.get() }
        print("cancelling a 400-megapixel decode returned after \(elapsed)")
        // The caller's stream ends at once (typically a few ms); the bound only tells "returned on
        // the cancel" from "waited for the decode" (seconds for 400 megapixels), with room for CI's
        // busy cores, where 1 s, 3.2 s and 10 s were seen; far below this pool's 90 s deadline.
        #expect(elapsed < .seconds(30), "cancel took \(elapsed)")
        let next = ThumbnailRequest(path: TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path, size: 32, types: [.thumbnail])
        #expect(try await generator.bestRepresentation(for: next).image.size == PixelSize(width: 32, height: 24))
        await pool.shutdown()
    }
}
