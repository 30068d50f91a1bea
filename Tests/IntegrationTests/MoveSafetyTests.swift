import Foundation
import Testing

/// Nothing lost in a move (`qlbrowse files move`): a source rewritten in place while it is copied
/// to another volume is kept with its change, with `--verify` too, and the `.part` temporary a
/// killed run left in the destination is removed by the next copy into that folder.
@Suite(.serialized, .enabled(if: getuid() == 0, "mounts a tmpfs"))
struct MoveSafetyTests {
    /// A source folder on the disk and a tmpfs destination: a move between them copies.
    final class Volumes {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-move")
        var source: String { folder.appendingPathComponent("from").path }
        var destination: String { folder.appendingPathComponent("ram").path }
        let mounted: Bool

        init() throws {
            try FileManager.default.createDirectory(atPath: folder.appendingPathComponent("from").path, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: folder.appendingPathComponent("ram").path, withIntermediateDirectories: true)
            mounted = TestEnvironment.run("/bin/mount", ["-t", "tmpfs", "-o", "size=900m", "tmpfs", folder.appendingPathComponent("ram").path]).status == 0
        }

        deinit {
            if mounted { TestEnvironment.run("/bin/umount", [destination]) }
            try? FileManager.default.removeItem(at: folder)
        }

        func files(_ arguments: [String]) -> TestEnvironment.Result {
            TestEnvironment.run(TestEnvironment.qlbrowse, ["files"] + arguments,
                                environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path])
        }
    }

    /// A file of `megabytes` MB of a pattern (not zeros, so nothing can skip it).
    static func bigFile(_ path: String, megabytes: Int) throws {
        var block = [UInt8](repeating: 0, count: 1 << 20)
        for index in block.indices { block[index] = UInt8(truncatingIfNeeded: index &* 131) }
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        for _ in 0..<megabytes { handle.write(Data(block)) }
        try handle.close()
    }

    /// A process that writes ten bytes at the start of `path` over and over (same size) until it
    /// is stopped, the last write `CHANGED-NN` with NN counting up.
    static func rewriter(_ path: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import os, sys, time
            fd = os.open(sys.argv[1], os.O_WRONLY)
            n = 0
            while True:
                os.pwrite(fd, b'CHANGED-%02d' % (n % 100), 0)
                n += 1
                time.sleep(0.002)
            """, path]
        try process.run()
        return process
    }

    func moveWhileRewritten(verify: Bool) throws {
        let volumes = try Volumes()
        guard volumes.mounted else { return }
        let big = volumes.source + "/big.bin"
        try Self.bigFile(big, megabytes: 400)
        let writer = try Self.rewriter(big)
        // The move starts once the rewriter is writing (python's start took over 100 ms in CI with
        // the whole suite on two cores, and a move that saw no write rightly moved the file).
        let writing = Date().addingTimeInterval(60)
        while Date() < writing, (try? FileHandle(forReadingFrom: URL(fileURLWithPath: big)).read(upToCount: 8)) != Data("CHANGED-".utf8) {
            usleep(10_000)
        }
        let result = volumes.files(["move"] + (verify ? ["--verify"] : []) + [big, volumes.destination])
        // SIGKILL: the test process's threads may block SIGTERM, and a child inherits the mask.
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("big.bin changed while it was copied; kept"), "\(result.stderr)")
        #expect(!result.stderr.contains("Input/output error"), "\(result.stderr)")
        // The source is where it was, with the change; nothing of it at the destination.
        let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: big)).read(upToCount: 8) ?? Data()
        #expect(head == Data("CHANGED-".utf8), "the source keeps the change")
        #expect(try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int == 400 << 20)
        #expect(try FileManager.default.contentsOfDirectory(atPath: volumes.destination) == [], "no copy and no temporary at the destination")
    }

    @Test func aSourceRewrittenWhileItIsMovedIsKept() throws {
        try moveWhileRewritten(verify: false)
    }

    @Test func verifySaysTheSourceChanged() throws {
        try moveWhileRewritten(verify: true)
    }

    @Test func aKilledCopysTemporaryIsRemovedByTheNextCopyIntoTheFolder() throws {
        let volumes = try Volumes()
        let into = volumes.folder.appendingPathComponent("into").path
        try FileManager.default.createDirectory(atPath: into, withIntermediateDirectories: true)
        // A copy that is killed holding its temporary, as FileCopier names and locks it; and one
        // that is still running (it holds its lock) and must be left alone.
        let holder = """
            import fcntl, os, sys, time
            path = '%s/.%s.qlbrowse-%d-12345.part' % (sys.argv[1], sys.argv[2], os.getpid())
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX)
            os.write(fd, b'x' * 100000)
            print(path, flush=True)
            time.sleep(600)
            """
        func start(_ name: String) throws -> (Process, String) {
            let process = Process(), out = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", holder, into, name]
            process.standardOutput = out
            try process.run()
            let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return (process, line)
        }
        let (killed, leftover) = try start("movie.mkv")
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        let (running, held) = try start("other.mkv")
        defer { kill(running.processIdentifier, SIGKILL); running.waitUntilExit() }
        #expect(FileManager.default.fileExists(atPath: leftover) && FileManager.default.fileExists(atPath: held))
        let small = volumes.source + "/note.txt"
        try "note".write(toFile: small, atomically: false, encoding: .utf8)
        let result = volumes.files(["copy", small, into])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: leftover), "the killed copy's temporary is gone: \(result.stderr)")
        #expect(result.stderr.contains("removed 1 temporary file an interrupted copy had left (.movie.mkv.qlbrowse-"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: held), "a running copy's temporary is left alone")
        #expect(FileManager.default.fileExists(atPath: into + "/note.txt"))
    }
}
