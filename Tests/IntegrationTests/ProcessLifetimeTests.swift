import Foundation
import Testing

/// One-shot commands start workers only when something must be decoded, and leave no process of
/// theirs behind: each run is the leader of a fresh process group (Tests/Support/process-group.py),
/// and after it exits nothing of that group may remain.
@Suite(.serialized) struct ProcessLifetimeTests {
    /// Runs qlbrowse in a fresh process group; returns its exit status and what was left in the group.
    private func runInOwnGroup(_ arguments: [String], environment: [String: String]) throws -> (status: Int, left: [String]) {
        let helper = TestEnvironment.root.appendingPathComponent("Tests/Support/process-group.py").path
        let result = TestEnvironment.run("/usr/bin/python3", [helper, TestEnvironment.qlbrowse] + arguments, environment: environment)
        let line = try #require(TestEnvironment.jsonLines(result.stdout).first, "no report: \(result.stdout) \(result.stderr)")
        let left = (line["left"] as? [[Any]] ?? []).map { $0.map { "\($0)" }.joined(separator: " ") }
        return (line["status"] as? Int ?? -1, left)
    }

    /// A worker wrapper that records each start, then becomes the real worker.
    private func countingWorker(in folder: URL) throws -> (path: String, log: String) {
        let wrapper = folder.appendingPathComponent("counting-thumbnailer").path
        let log = folder.appendingPathComponent("starts.log").path
        let script = "#!/bin/sh\necho \"$$\" >> '\(log)'\nexec '\(TestEnvironment.thumbnailer)' \"$@\"\n"
        try TestEnvironment.writeFile(script, to: wrapper)
        return (wrapper, log)
    }

    private func starts(_ log: String) -> Int {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    @Test func aCacheHitStartsNoWorkerAndNoCommandLeavesAProcessBehind() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-lifetime")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ["landscape.jpg", "doc.pdf", "tone.wav"] {
            try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent(name), to: photos.appendingPathComponent(name))
        }
        let (wrapper, log) = try countingWorker(in: folder)
        let environment = ["QLBROWSE_THUMBNAILER": wrapper, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]
        let photo = photos.appendingPathComponent("landscape.jpg").path

        // A miss decodes: workers start, and are gone when the command is.
        let first = try runInOwnGroup(["thumbnail", "-o", folder.path, photo], environment: environment)
        #expect(first.status == 0)
        #expect(first.left.isEmpty, "left running after `thumbnail`: \(first.left)")
        let afterMiss = starts(log)
        #expect(afterMiss >= 1, "the miss should have started a worker")

        // The same file again is a cache hit: no worker at all.
        let second = try runInOwnGroup(["thumbnail", "--json", "-o", folder.path, photo], environment: environment)
        #expect(second.status == 0)
        #expect(second.left.isEmpty, "left running after a cache hit: \(second.left)")
        #expect(starts(log) == afterMiss, "a cache hit started \(starts(log) - afterMiss) worker(s)")

        // A folder batch (misses in parallel), then the same batch all cached, then the cache commands.
        let batch = try runInOwnGroup(["thumbnail", "-r", "--jobs", "2", photos.path], environment: environment)
        #expect(batch.status == 0)
        #expect(batch.left.isEmpty, "left running after `thumbnail -r`: \(batch.left)")
        let afterBatch = starts(log)
        let cachedBatch = try runInOwnGroup(["thumbnail", "-r", photos.path], environment: environment)
        #expect(cachedBatch.status == 0)
        #expect(cachedBatch.left.isEmpty, "left running after a cached `thumbnail -r`: \(cachedBatch.left)")
        #expect(starts(log) == afterBatch, "a fully cached batch started \(starts(log) - afterBatch) worker(s)")
        for command in [["cache", "stats"], ["cache", "clean"], ["types"]] {
            let run = try runInOwnGroup(command, environment: environment)
            #expect(run.status == 0, "\(command)")
            #expect(run.left.isEmpty, "left running after `\(command.joined(separator: " "))`: \(run.left)")
        }
    }
}
