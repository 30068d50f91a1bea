import Foundation
import Testing

/// A shared folder (1777, like /tmp or a team share) where a second user plants traps for the
/// one who runs qlbrowse: links in `.sh_thumbnails`, FIFOs where shared thumbnails would be, FIFOs
/// and device links named like photos. Nothing planted may make qlbrowse write where the planter
/// chose, wait on a FIFO, publish a private file's picture, or leave a volume "not responding".
@Suite(.serialized, .enabled(if: SecondUser.isAvailable, "needs root, useradd and runuser to act as a second user"))
struct HostileShareTests {
    /// A fresh folder holding `share` (1777, the victim's photo in it) and `victim` (0700, the
    /// victim's own, which the second user cannot read).
    private struct Place {
        let root: URL
        var share: URL { root.appendingPathComponent("share") }
        var victim: URL { root.appendingPathComponent("victim") }
        var cache: String { root.appendingPathComponent("z-cache").path }

        init() throws {
            try SecondUser.ensure()
            root = TestEnvironment.temporaryFolder("qlbrowse-hostile")
            chmod(root.path, 0o755)
            try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
            chmod(share.path, 0o1777)
            try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
            chmod(victim.path, 0o700)
            let picture = TestEnvironment.run("/usr/local/bin/convert", ["-size", "300x200", "xc:blue", share.appendingPathComponent("photo.jpg").path])
            guard picture.status == 0 else { throw Failure.setUp("convert: \(picture.stderr)") }
            chmod(share.appendingPathComponent("photo.jpg").path, 0o644)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    enum Failure: Error { case setUp(String) }

    /// The md5 name of `name`'s entry in a shared repository (the standard's `./name` URI).
    private func sharedName(_ name: String) -> String {
        let digest = TestEnvironment.run("/usr/bin/python3", ["-c", "import hashlib,sys;print(hashlib.md5(('./'+sys.argv[1]).encode()).hexdigest())", name])
        return digest.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + ".png"
    }

    /// qlbrowse with a bound of its own (a hang ends as status 124, not as a stuck test run).
    private func qlbrowse(_ arguments: [String], cache: String, seconds: Int = 30) -> TestEnvironment.Result {
        TestEnvironment.run("/usr/bin/timeout", ["-k", "5", String(seconds), TestEnvironment.qlbrowse] + arguments,
                            environment: ["XDG_CACHE_HOME": cache, "TERM": "xterm-256color"])
    }

    @Test func aPlantedSizeFolderLinkWritesNothingIntoTheVictimsFolder() throws {
        let place = try Place()
        defer { place.remove() }
        let planted = SecondUser.run("mkdir -m 0777 \"$1/.sh_thumbnails\" && ln -s \"$2\" \"$1/.sh_thumbnails/large\" && ln -s \"$2\" \"$1/.sh_thumbnails/normal\"",
                                     place.share.path, place.victim.path)
        #expect(planted.status == 0, "\(planted.stderr)")
        let run = qlbrowse(["thumbnail", "-r", "--shared", place.share.path], cache: place.cache)
        #expect(run.status != 124, "thumbnail -r --shared hung")
        let written = try FileManager.default.contentsOfDirectory(atPath: place.victim.path)
        #expect(written.isEmpty, "written into the victim's folder through the planted link: \(written)")
        // The personal cache still got its thumbnail: only the planted repository was refused, and
        // the run says so (it was asked for --shared) instead of reporting success.
        #expect(run.status == 1 && run.stderr.contains("the personal cache has it, but .sh_thumbnails beside it could not be written safely"),
                "\(run.status) \(run.stdout) \(run.stderr)")
    }

    @Test func fifosAtTheSharedThumbnailsNamesHoldNeitherThumbnailNorPreview() throws {
        let place = try Place()
        defer { place.remove() }
        let name = sharedName("photo.jpg")
        let planted = SecondUser.run("mkdir -p \"$1/.sh_thumbnails/normal\" \"$1/.sh_thumbnails/large\" && mkfifo \"$1/.sh_thumbnails/normal/$2\" \"$1/.sh_thumbnails/large/$2\"",
                                     place.share.path, name)
        #expect(planted.status == 0, "\(planted.stderr)")
        let photo = place.share.appendingPathComponent("photo.jpg").path
        let thumbnail = qlbrowse(["thumbnail", "-o", place.root.path, photo], cache: place.cache)
        #expect(thumbnail.status == 0 && thumbnail.seconds < 5, "thumbnail: status \(thumbnail.status) after \(thumbnail.seconds) s: \(thumbnail.stderr)")
        #expect(TestEnvironment.pngSize(place.root.appendingPathComponent("photo.jpg.png").path) != nil, "no thumbnail written")
        let preview = qlbrowse(["preview", photo, "--size", "20x8", "--graphics", "symbols"], cache: place.cache + "-preview")
        #expect(preview.status == 0 && preview.seconds < 5, "preview: status \(preview.status) after \(preview.seconds) s: \(preview.stderr)")
        #expect(preview.stdout.contains("\u{1B}["), "preview drew nothing")
    }

    @Test func onlyFilesEveryoneMayReadArePublishedAndSharedIgnoresThePersonalCache() throws {
        let place = try Place()
        defer { place.remove() }
        for (name, mode) in [("private.txt", 0o600), ("group.txt", 0o640), ("public.txt", 0o644)] as [(String, mode_t)] {
            let path = place.share.appendingPathComponent(name).path
            try "the first lines of \(name)\n".write(toFile: path, atomically: false, encoding: .utf8)
            chmod(path, mode)
        }
        // Thumbnailed into the personal cache first, as a user who browsed there earlier would have.
        let first = qlbrowse(["thumbnail", "-r", place.share.path], cache: place.cache)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!FileManager.default.fileExists(atPath: place.share.appendingPathComponent(".sh_thumbnails").path))
        let shared = qlbrowse(["thumbnail", "-r", "--shared", place.share.path], cache: place.cache)
        #expect(shared.status == 0, "\(shared.stderr)")
        let large = place.share.appendingPathComponent(".sh_thumbnails/large")
        for name in ["photo.jpg", "public.txt"] {
            let path = large.appendingPathComponent(sharedName(name)).path
            #expect(TestEnvironment.pngSize(path) != nil, "no shared thumbnail of \(name) although the personal cache had one")
            let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? nil
            #expect(mode.map { $0 & 0o077 == 0o044 } ?? false, "\(name)'s shared thumbnail is \(String(mode ?? 0, radix: 8))")
        }
        for name in ["private.txt", "group.txt"] {
            #expect(!FileManager.default.fileExists(atPath: large.appendingPathComponent(sharedName(name)).path),
                    "\(name) is not readable by everyone, yet its thumbnail was published")
        }
    }

    @Test func aFIFOAndADeviceLinkNamedLikePhotosAreRefusedAtOnce() throws {
        let place = try Place()
        defer { place.remove() }
        let planted = SecondUser.run("mkfifo \"$1/fifo.jpg\" && ln -s /dev/zero \"$1/zero.jpg\"", place.share.path)
        #expect(planted.status == 0, "\(planted.stderr)")
        for (name, what) in [("fifo.jpg", "is a FIFO"), ("zero.jpg", "is a device")] {
            let file = place.share.appendingPathComponent(name).path
            let thumbnail = qlbrowse(["thumbnail", "-o", place.root.path, file], cache: place.cache)
            #expect(thumbnail.status == 1 && thumbnail.seconds < 2, "\(name): status \(thumbnail.status) after \(thumbnail.seconds) s")
            #expect(thumbnail.stderr.contains(what), "\(name): \(thumbnail.stderr)")
            let preview = qlbrowse(["preview", file, "--size", "20x8", "--graphics", "symbols"], cache: place.cache)
            #expect(preview.status != 0 && preview.status != 124 && preview.seconds < 2, "preview \(name): status \(preview.status) after \(preview.seconds) s")
            #expect(preview.stderr.contains(what), "preview \(name): \(preview.stderr)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "needs tmux"))
    func quickLookOnAFIFOLeavesTheVolumeResponding() throws {
        let place = try Place()
        defer { place.remove() }
        let planted = SecondUser.run("mkfifo \"$1/a-trap.txt\" \"$1/b-trap.jpg\" \"$1/c-trap.pdf\"", place.share.path)
        #expect(planted.status == 0, "\(planted.stderr)")
        let other = place.root.appendingPathComponent("a-elsewhere")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try "hello\n".write(to: other.appendingPathComponent("still-here.txt"), atomically: true, encoding: .utf8)
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics none '\(place.share.path)'", columns: 120, rows: 30,
                                      environment: ["XDG_CACHE_HOME": place.cache])
        #expect(session.waitFor { $0.contains("a-trap.txt") && !$0.contains("reading…") }, "the browser did not start:\n\(session.screen())")
        #expect(session.lines().dropFirst().first?.contains("a-trap.txt") ?? false, "the cursor is not on the first FIFO")
        session.send("Space")
        #expect(session.waitFor(5) { $0.contains("is a FIFO") }, "Quick Look does not say what the file is:\n\(session.screen())")
        // Past the 10 s deadline of a volume call (PictureService.readText): a read stuck on the
        // FIFO would by then be counted against the volume, and every folder on it would show
        // "/ is not responding" (the repro).
        Thread.sleep(forTimeInterval: 11)
        // A picture (refused by the generator) and a PDF (whose pages the worker is asked for directly).
        for name in ["b-trap.jpg", "c-trap.pdf"] {
            session.send("Right")
            #expect(session.waitFor(3) { $0.contains(name) && $0.contains("is a FIFO") && !$0.contains("not read:") },
                    "Quick Look on \(name) does not say what it is:\n\(session.screen())")
        }
        session.send("Escape")
        #expect(session.waitFor(5) { $0.contains("photo.jpg") && $0.contains("sort:name") }, "Quick Look did not close:\n\(session.screen())")
        // Another folder of the same volume: up to the parent, then up from `share` to `a-elsewhere` and into it.
        session.send("Left")
        #expect(session.waitFor(10) { $0.contains("a-elsewhere") && !$0.contains("reading…") }, "\(session.screen())")
        session.send("Up")
        session.send("Right")
        #expect(session.waitFor(10) { $0.contains("still-here.txt") }, "the same volume's other folder does not list:\n\(session.screen())")
        #expect(!session.screen().contains("not responding") && !session.screen().contains("waiting for"), "\(session.screen())")
        session.send("q")
    }
}
