import Foundation
import Testing

/// Reports and exit statuses that say what really happened (issue 22): a cache that cannot be
/// written, missing and too-deep folders, numbers that would overflow, `.` and `..` given to
/// trash, runtime errors against usage errors.
@Suite(.serialized) struct HonestReportTests {
    private let qlbrowse = TestEnvironment.qlbrowse

    /// A folder of `count` copies of landscape.jpg under different names (each its own cache entry).
    private func photos(_ count: Int) throws -> URL {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-honest")
        let photo = TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path
        for index in 1...count {
            try FileManager.default.copyItem(atPath: photo, toPath: folder.appendingPathComponent("photo-\(index).jpg").path)
        }
        return folder
    }

    /// A tmpfs of 200 KB, filled to the last byte: every thumbnail stored there fails with ENOSPC.
    private func fullCache() throws -> String? {
        let cache = TestEnvironment.temporaryFolder("qlbrowse-full-cache").path
        guard getuid() == 0, TestEnvironment.run("/bin/mount", ["-t", "tmpfs", "-o", "size=200k", "tmpfs", cache]).status == 0 else { return nil }
        TestEnvironment.run("/bin/dd", ["if=/dev/zero", "of=\(cache)/filler", "bs=4k"])
        return cache
    }

    @Test func aCacheThatCannotBeWrittenCountsAsAFailureAndChangesTheExitStatus() throws {
        let folder = try photos(6)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let cache = try fullCache() else { return }  // not root: no tmpfs
        defer { TestEnvironment.run("/bin/umount", [cache]); try? FileManager.default.removeItem(atPath: cache) }
        // A folder batch: nothing could be stored, so nothing was "generated".
        let batch = TestEnvironment.run(qlbrowse, ["thumbnail", "-r", folder.path], environment: ["XDG_CACHE_HOME": cache])
        #expect(batch.status == 1, "\(batch.stderr)")
        #expect(batch.stderr.contains("generated 0, already cached 0, failed 6, skipped 0"), "\(batch.stderr)")
        #expect(batch.stderr.contains("photo-1.jpg: made, but not stored in the cache: cannot write"), "\(batch.stderr)")
        #expect(batch.stderr.contains("No space left on device"), "\(batch.stderr)")
        // Files given one by one: the pictures are written to -o, and each file not kept in the cache is named.
        let out = TestEnvironment.temporaryFolder("qlbrowse-honest-out")
        defer { try? FileManager.default.removeItem(at: out) }
        let files = (1...6).map { folder.appendingPathComponent("photo-\($0).jpg").path }
        let single = TestEnvironment.run(qlbrowse, ["thumbnail", "-o", out.path] + files, environment: ["XDG_CACHE_HOME": cache])
        #expect(single.status == 1, "\(single.stderr)")
        for index in 1...6 {
            #expect(single.stderr.contains("photo-\(index).jpg: made, but not stored in the cache"), "\(single.stderr)")
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("photo-\(index).jpg.png").path))
        }
        // A read-only cache (root writes through permissions, so a read-only mount stands for it).
        let readOnly = TestEnvironment.temporaryFolder("qlbrowse-ro-cache").path
        guard TestEnvironment.run("/bin/mount", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", readOnly]).status == 0 else { return }
        defer { TestEnvironment.run("/bin/umount", [readOnly]); try? FileManager.default.removeItem(atPath: readOnly) }
        let refused = TestEnvironment.run(qlbrowse, ["thumbnail", "-r", folder.path], environment: ["XDG_CACHE_HOME": readOnly])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("generated 0, already cached 0, failed 6"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Read-only file system"), "\(refused.stderr)")
    }

    @Test func aMissingFolderFailsTheRunAndIsNamed() throws {
        let folder = try photos(2)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.path + "-missing"
        let alone = TestEnvironment.run(qlbrowse, ["thumbnail", "-r", missing])
        #expect(alone.status == 1, "\(alone.stderr)")
        #expect(alone.stderr.contains("\(missing): not listed: No such file or directory"), "\(alone.stderr)")
        let among = TestEnvironment.run(qlbrowse, ["thumbnail", "-r", folder.path, missing])
        #expect(among.status == 1, "\(among.stderr)")
        #expect(among.stderr.contains("\(missing): not listed: No such file or directory"), "\(among.stderr)")
        #expect(among.stderr.contains("generated 2, already cached 0, failed 0, skipped 0, folders not listed 1"), "\(among.stderr)")
    }

    @Test func foldersDeeperThanPathMaxAreReportedAsSkipped() throws {
        let folder = try photos(1)
        defer { TestEnvironment.run("/bin/rm", ["-rf", folder.path]) }
        // 24 levels of 200-byte names: the deepest folders' paths pass PATH_MAX (4096 bytes).
        let made = TestEnvironment.run("/usr/bin/python3", ["-c", """
            import os, shutil, sys
            os.chdir(sys.argv[1])
            for level in range(24):
                name = ('%02d' % level) + 'd' * 198
                os.mkdir(name)
                os.chdir(name)
            shutil.copy(sys.argv[2], 'deep.jpg')
            """, folder.path, TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path])
        #expect(made.status == 0, "\(made.stderr)")
        let result = TestEnvironment.run(qlbrowse, ["thumbnail", "-r", folder.path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("not listed: skipped: its path is longer than the system allows"), "\(result.stderr)")
        #expect(result.stderr.contains("generated 1,"), "the shallow photo is still done: \(result.stderr)")
    }

    @Test func numbersOutOfRangeGetAPlainMessageNeverATrap() throws {
        let out = TestEnvironment.temporaryFolder("qlbrowse-honest-out")
        defer { try? FileManager.default.removeItem(at: out) }
        let photo = TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path
        let clip = out.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: TestEnvironment.fixtures.appendingPathComponent("clip.mp4").path, toPath: clip)
        let cases: [(arguments: [String], says: String)] = [
            (["thumbnail", "--no-cache", "-o", out.path, "--timeout", "1e10", photo], "--timeout takes seconds"),
            (["thumbnail", "--no-cache", "-o", out.path, "--timeout", "1e300", photo], "--timeout takes seconds"),
            (["thumbnail", "--no-cache", "-o", out.path, "--size", "-5", photo], "--size must be between 1 and 4096"),
            (["thumbnail", "--no-cache", "-o", out.path, "--jobs", "-2", photo], "--jobs must be between 1 and 64"),
            (["edit", "trim", "--end", "99999999999999", "--copy", clip], "longer than any recording"),
            (["edit", "trim", "--end", "inf", "--copy", clip], "inf is not a time"),
            (["edit", "trim", "--end", "-5", "--copy", clip], "-5 is not a time"),
            (["find", "x", out.path, "--best", "-3"], "--best takes a number of matches"),
            (["cache", "clean", "--older-than", "99999999999999", "--dry-run"], "--older-than takes a number of days"),
        ]
        for (arguments, says) in cases {
            let result = TestEnvironment.run(qlbrowse, arguments)
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(says), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value") && !result.stderr.contains("Fatal error") && !result.stderr.contains("crashed"),
                    "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["clip.mp4"], "nothing was made")
    }

    @Test func runtimeErrorsExitOneWithOneSentenceAndUsageErrorsSixtyFour() throws {
        let folder = try photos(1)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo-1.jpg").path
        let cases: [(arguments: [String], sentence: String)] = [
            (["preview", "--size", "20x10", folder.path + "/missing.jpg"], "qlbrowse: cannot preview \(folder.path)/missing.jpg: No such file or directory\n"),
            (["thumbnail", "-o", "/nonexistent/x.png", photo], "qlbrowse: the output folder /nonexistent/x.png does not exist (-o takes a folder)\n"),
            (["thumbnail", "-o", "/etc/passwd", photo], "qlbrowse: /etc/passwd is a file, not a folder (-o takes the folder to write the images into)\n"),
            (["find", "x", "/nonexistent"], "qlbrowse: cannot look in /nonexistent: No such file or directory\n"),
            (["files", "copy", photo, "/nonexistent"], "qlbrowse: the destination folder /nonexistent cannot be used: No such file or directory\n"),
            // A folder where a file is wanted: refused before the screen is taken, not lost at the end.
            (["--choosedir", folder.path, folder.path], "qlbrowse: \(folder.path) is a folder; --choosedir takes a file to write\n"),
        ]
        for (arguments, sentence) in cases {
            let result = TestEnvironment.run(qlbrowse, arguments)
            #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr == sentence, "\(arguments)")
        }
        // A mistake in the command line keeps the usage text and 64.
        let usage = TestEnvironment.run(qlbrowse, ["thumbnail", "--size", "0", photo])
        #expect(usage.status == 64 && usage.stderr.contains("Usage: qlbrowse thumbnail"), "\(usage.stderr)")
        // preview has no --force: a failure remembered in the cache does not suggest it.
        let broken = folder.appendingPathComponent("broken.jpg").path
        FileManager.default.createFile(atPath: broken, contents: Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("garbage".utf8)))
        let cache = ["XDG_CACHE_HOME": folder.appendingPathComponent(".cache").path]
        let first = TestEnvironment.run(qlbrowse, ["preview", "--size", "20x10", broken], environment: cache)
        let again = TestEnvironment.run(qlbrowse, ["preview", "--size", "20x10", broken], environment: cache)
        #expect(first.status == 1 && again.status == 1, "\(first.stderr)\(again.stderr)")
        #expect(again.stderr.contains("(remembered;") && !again.stderr.contains("--force"), "\(again.stderr)")
        let thumbnail = TestEnvironment.run(qlbrowse, ["thumbnail", "-o", folder.path, broken], environment: cache)
        #expect(thumbnail.stderr.contains("(remembered; --force retries)"), "thumbnail has --force: \(thumbnail.stderr)")
    }

    @Test func trashAndMoveRefuseDotAndDotDotAsRmDoes() throws {
        let folder = TestEnvironment.temporaryFolder("qlbrowse-honest-dot")
        defer { try? FileManager.default.removeItem(at: folder) }
        let inside = folder.appendingPathComponent("inside")
        try FileManager.default.createDirectory(at: inside.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try "keep".write(to: inside.appendingPathComponent("keep.txt"), atomically: false, encoding: .utf8)
        try "go".write(to: inside.appendingPathComponent("go.txt"), atomically: false, encoding: .utf8)
        let dest = folder.appendingPathComponent("dest")
        try FileManager.default.createDirectory(at: dest, withIntermediateDirectories: true)
        let environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path]
        for operands in [["."], [".."], ["sub/.."], ["sub/."], ["./"], ["sub/../"]] {
            let result = TestEnvironment.run(qlbrowse, ["files", "trash"] + operands, environment: environment, currentDirectory: inside)
            #expect(result.status == 1, "\(operands): \(result.stderr)")
            #expect(result.stderr.contains("refusing to remove '.' or '..': skipping '\(operands[0])'"), "\(operands): \(result.stderr)")
            let moved = TestEnvironment.run(qlbrowse, ["files", "move"] + operands + [dest.path], environment: environment, currentDirectory: inside)
            #expect(moved.status == 1 && moved.stderr.contains("refusing to remove '.' or '..'"), "\(operands): \(moved.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: inside.appendingPathComponent("keep.txt").path), "the folder is still there")
        #expect(FileManager.default.fileExists(atPath: inside.appendingPathComponent("sub").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dest.path).isEmpty)
        // The other operands are still done, and the status says one was refused.
        let mixed = TestEnvironment.run(qlbrowse, ["files", "trash", ".", "go.txt"], environment: environment, currentDirectory: inside)
        #expect(mixed.status == 1, "\(mixed.stderr)")
        #expect(mixed.stderr.contains("1 done, 1 refused"), "\(mixed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: inside.appendingPathComponent("go.txt").path))
    }
}
