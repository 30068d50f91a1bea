import FileSystemKit
import Foundation
import Places
import Synchronization
import SystemKit
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The SFTP fallback (issue #26) over a real sshd on loopback whose "remote" has no qlbrowse:
/// listing a name that is not UTF-8 beside its look-alike twin, ranged reads, a photo's embedded
/// preview from its first bytes only, the full picture from a whole-file copy kept here (a second
/// visit reads nothing), the server killed mid-listing, and the browser choosing SFTP by itself.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct SFTPPlaceTests {
    /// `caf\xE9.txt` (Latin-1, not UTF-8) and `café.txt` (UTF-8): twins on screen, two files.
    static let latin1 = String(fileSystemBytes: Array("caf".utf8) + [0xE9] + Array(".txt".utf8))
    static let twin = "café.txt"

    let ssh: LoopbackSSH
    let files: URL

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        files = ssh.folder.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    }

    private func write(_ name: String, _ bytes: [UInt8]) { LoopbackSSH.write(files.path + "/" + name, bytes) }

    @Test func listsANameThatIsNotUTF8BesideItsLookAlikeTwin() async throws {
        defer { ssh.stop() }
        write(Self.latin1, Array("bonjour".utf8))
        write(Self.twin, Array("salut".utf8))
        try FileManager.default.createDirectory(at: files.appendingPathComponent("album"), withIntermediateDirectories: true)
        symlink(files.path + "/album", files.path + "/link")
        // More names than one READDIR answer holds (internal-sftp sends 100 at a time).
        for index in 0..<300 { write("photo \(index).jpg", []) }
        let place = try await ssh.sftpPlace(files.path)
        defer { place.disconnect() }
        let root = try await place.resolve(place.address.path)
        #expect(root.isDirectory && root.path == files.path)
        let listed = try await place.entries(of: files.path)
        #expect(listed.count == 304)
        let names = listed.handles.map { listed.name($0) }
        #expect(names.contains(Self.latin1.fileSystemBytes) && names.contains(Array(Self.twin.utf8)), "both twins, each by its own bytes")
        #expect(listed.handles.contains { listed.isDirectory($0) && listed.name($0) == Array("link".utf8) }, "a link to a folder is a folder")
        #expect(try await place.item(at: files.path + "/" + Self.latin1).size == 7)
        #expect(try await place.item(at: files.path + "/" + Self.twin).size == 5)
        let link = try await place.item(at: files.path + "/link")
        #expect(link.isDirectory && link.isSymbolicLink)
        do {
            _ = try await place.item(at: files.path + "/nothing")
            Issue.record("a missing file was found")
        } catch {
            #expect(error.code == .notFound)
        }
    }

    @Test func readsRangesAcrossManyChunksInFlight() async throws {
        defer { ssh.stop() }
        let content = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        write("data.bin", content)
        let place = try await ssh.sftpPlace(files.path)
        defer { place.disconnect() }
        let path = files.path + "/data.bin"
        #expect(try await place.read(path, offset: 100_000, length: 150_000) == Array(content[100_000..<250_000]))
        #expect(try await place.read(path, offset: 290_000, length: 50_000) == Array(content[290_000...]), "fewer at the end")
        #expect(try await place.read(path, offset: 300_000, length: 10).isEmpty)
        let lines = try await place.textLines(path, from: 0, count: 1)
        #expect(lines.first == 0 && lines.lines.count == 1)
        // Bytes of files read: what was asked, not the whole file.
        #expect(place.fileBytesRead == 150_000 + 10_000 + content.count)
    }

    /// A 4 MB photo whose EXIF thumbnail (160x120) fills a 128 px box: the picture comes from the
    /// first 128 KiB only.
    @Test func aPhotosEmbeddedPreviewComesFromItsFirstBytesOnly() async throws {
        defer { ssh.stop() }
        let photo = try [UInt8](Data(contentsOf: TestEnvironment.fixtures.appendingPathComponent("with-exif-thumb.jpg")))
        // A camera's 4 MB: the same photo, its scan data followed by bytes nothing reads.
        write("camera.jpg", photo + [UInt8](repeating: 0, count: 4_000_000))
        let place = try await ssh.sftpPlace(files.path)
        defer { place.disconnect() }
        let item = try await place.item(at: files.path + "/camera.jpg")
        var options = ThumbnailOptions(size: 128, types: [.lowQuality, .thumbnail])
        options.checksVersion = false
        var pictures: [Representation] = []
        for try await picture in place.thumbnails(of: item, options: options) { pictures.append(picture) }
        let picture = try #require(pictures.last)
        #expect(picture.type == .thumbnail && picture.source == "exif", "\(picture.type) \(picture.source)")
        #expect(max(picture.image.width, picture.image.height) == 128)
        #expect(place.fileBytesRead <= 128 * 1024 && place.fileBytesRead * 20 < item.size, "\(place.fileBytesRead) of \(item.size) bytes read")
    }

    /// At 256 px the EXIF thumbnail is too small: a low-quality picture first, then the whole
    /// file is read once into the cache here and thumbnailed by the local engine; the next visit
    /// (a new connection) reads nothing.
    @Test func theFullPictureComesFromAWholeFileCopyKeptHere() async throws {
        defer { ssh.stop() }
        try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent("with-exif-thumb.jpg"), to: files.appendingPathComponent("photo.jpg"))
        let cache = SFTPFileCache(folder: ssh.folder.path + "/sftp-files")
        let pool = WorkerPool(size: 1, executable: TestEnvironment.thumbnailer)
        let generator = ThumbnailGenerator(pool: pool)
        var options = ThumbnailOptions(size: 256, types: [.lowQuality, .thumbnail])
        options.progressive = true
        func visit() async throws -> (pictures: [Representation], read: Int, size: Int) {
            let place = try await ssh.sftpPlace(files.path, fileCache: cache, thumbnails: generator)
            defer { place.disconnect() }
            let item = try await place.item(at: files.path + "/photo.jpg")
            var pictures: [Representation] = []
            for try await picture in place.thumbnails(of: item, options: options) { pictures.append(picture) }
            return (pictures, place.fileBytesRead, item.size)
        }
        let first = try await visit()
        #expect(first.pictures.map(\.type).first == .lowQuality, "the embedded preview first: \(first.pictures.map(\.type))")
        let full = try #require(first.pictures.last)
        #expect(full.type == .thumbnail && full.image.width == 256, "\(full.type) \(full.image.width)")
        #expect(first.read == first.size, "each byte read once (the first bytes, read for the preview, are the copy's start)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache.folder).filter { !$0.hasPrefix(".") }
        #expect(kept.count == 1 && kept[0].hasSuffix(".jpg"), "\(kept)")
        let second = try await visit()
        #expect(second.read == 0, "a second visit reads \(second.read) bytes")
        #expect(second.pictures.last?.type == .thumbnail && second.pictures.last?.image.width == 256)
        await pool.shutdown()
    }

    /// Rename and new items never go over a name; a delete removes a folder's content first and
    /// a link, not what it points to; the trash is refused with why, and nothing is removed.
    @Test func renamesMakesAndDeletesButRefusesTheTrash() async throws {
        defer { ssh.stop() }
        write(Self.latin1, Array("bonjour".utf8))
        write(Self.twin, Array("salut".utf8))
        let outside = ssh.folder.path + "/outside.txt"
        LoopbackSSH.write(outside, Array("keep".utf8))
        try FileManager.default.createDirectory(at: files.appendingPathComponent("album/inner"), withIntermediateDirectories: true)
        write("album/inner/" + Self.latin1, [1, 2, 3])
        symlink(outside, files.path + "/album/link")
        let place = try await ssh.sftpPlace(files.path)
        defer { place.disconnect() }
        let base = files.path + "/"
        _ = try await place.rename(base + Self.latin1, to: base + "renamed.txt")
        #expect(try await place.item(at: base + "renamed.txt").size == 7)
        do {
            _ = try await place.rename(base + "renamed.txt", to: base + Self.twin)
            Issue.record("renamed over an existing name")
        } catch {
            #expect(error.code == .exists, "\(error.message)")
        }
        #expect(try await place.read(base + Self.twin, offset: 0, length: 10) == Array("salut".utf8), "the twin is untouched")
        _ = try await place.make(base + "new", folder: true)
        _ = try await place.make(base + "new/empty", folder: false)
        #expect(try await place.item(at: base + "new/empty").size == 0)
        do {
            _ = try await place.make(base + "new", folder: true)
            Issue.record("made over an existing name")
        } catch {
            #expect(error.code == .exists, "\(error.message)")
        }
        do {
            _ = try await place.trash(base + "renamed.txt")
            Issue.record("trashed over SFTP")
        } catch {
            #expect(error.code == .unsupported && error.message.contains("no trash"), "\(error.message)")
        }
        #expect(try await place.item(at: base + "renamed.txt").size == 7, "a refused trash removes nothing")
        let operation = FileOperation(kind: .delete, sources: [base + "album", base + "renamed.txt"], destination: nil)
        let report = try await place.perform(operation, events: FileOperationEvents())
        #expect(report.done == [base + "album", base + "renamed.txt"] && report.failures.isEmpty, "\(report.failures)")
        #expect(!FileManager.default.fileExists(atPath: base + "album") && !FileManager.default.fileExists(atPath: base + "renamed.txt"))
        #expect(FileManager.default.fileExists(atPath: outside), "a link's target is not deleted")
    }

    @Test func sshdKilledMidListingEndsTheListingWithAMessage() async throws {
        write(Self.latin1, Array("bonjour".utf8))
        let place = try await ssh.sftpPlace(files.path, callDeadline: 20)
        defer { place.disconnect() }
        let sessions = ssh.sessions()
        try #require(!sessions.isEmpty)
        for pid in sessions { kill(pid, SIGSTOP) }
        let sentBefore = place.traffic.sent
        let killed = Mutex<Date?>(nil)
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<FileSystemError?, Never>) in
            place.list(files.path) { _, complete, failure in
                if failure != nil || complete { continuation.resume(returning: failure) }
            }
            DispatchQueue.global().async {
                let giveUp = Date().addingTimeInterval(30)
                while place.traffic.sent == sentBefore && Date() < giveUp { usleep(10_000) }
                usleep(200_000)
                killed.withLock { $0 = Date() }
                ssh.stop()
            }
        }
        let failure = try #require(outcome, "the listing did not fail")
        #expect(failure.code == .volumeGone && failure.message.contains("the connection to 127.0.0.1 was lost"), "\(failure.message)")
        let sinceKill = killed.withLock { $0 }.map { Date().timeIntervalSince($0) } ?? 0
        #expect(sinceKill < 10, "the drop is noticed at once, not after the 20 s deadline")
    }

    /// ssh's own refusal of a changed host key is told as for the remote place (`SSHDiagnosis`).
    @Test func aChangedHostKeyIsNamedAndNeverAccepted() async throws {
        defer { ssh.stop() }
        let other = ssh.folder.appendingPathComponent("other_key").path
        TestEnvironment.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", other])
        let otherKey = try String(contentsOfFile: other + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        let knownHosts = ssh.folder.appendingPathComponent("known_hosts").path
        let line = "[127.0.0.1]:\(ssh.port) \(otherKey)\n"
        try line.write(toFile: knownHosts, atomically: true, encoding: .utf8)
        let command = ssh.sshCommand.replacingOccurrences(of: "StrictHostKeyChecking=yes", with: "StrictHostKeyChecking=ask")
        do {
            _ = try await ssh.sftpPlace(files.path, sshCommand: command)
            Issue.record("connected to a host whose key changed")
        } catch {
            #expect(error.message.contains("the host key of 127.0.0.1 has changed") && error.message.contains(knownHosts + ":1"), "\(error.message)")
        }
        #expect(try String(contentsOfFile: knownHosts, encoding: .utf8) == line, "known_hosts is left as it was")
    }

    /// `qlbrowse ssh://…` on a remote without qlbrowse: the browser falls back to SFTP by itself
    /// and its status line says `sftp:host`; `--sftp` forces it on a remote that has qlbrowse.
    @Test func theBrowserFallsBackToSFTPAndSaysSo() throws {
        defer { ssh.stop() }
        write(Self.latin1, Array("bonjour".utf8))
        write(Self.twin, Array("salut".utf8))
        let missing = ["QLBROWSE_SSH_COMMAND": ssh.sshCommand, "QLBROWSE_REMOTE_COMMAND": ssh.folder.path + "/no-such-qlbrowse"]
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(ssh.url(files.path))'", environment: missing)
        #expect(session.waitFor(20) { $0.contains("caf\\xE9.txt") && $0.contains(Self.twin) && $0.contains("sftp:127.0.0.1") }, "\(session.screen())")
        session.send("q")
        #expect(session.waitFor(10) { $0.contains("EXITED:0") }, "\(session.screen())")
        let forced = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --sftp --graphics symbols '\(ssh.url(files.path))'",
                                     environment: ["QLBROWSE_SSH_COMMAND": ssh.sshCommand, "QLBROWSE_REMOTE_COMMAND": ssh.remoteCommand])
        #expect(forced.waitFor(20) { $0.contains("caf\\xE9.txt") && $0.contains("sftp:127.0.0.1") }, "\(forced.screen())")
        #expect(ssh.servers().isEmpty, "no qlbrowse serve was started")
        forced.send("q")
        #expect(forced.waitFor(10) { $0.contains("EXITED:0") }, "\(forced.screen())")
    }
}
