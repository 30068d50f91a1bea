import FileSystemKit
import Foundation
import Places
import SystemKit
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Quick Look on a remote file over a real sshd on loopback (#26): a PDF's page, a video's
/// frame, a photo's region, an archive's members and a text file's lines are made by the
/// remote's own workers and reader, only the picture (as PNG) or the lines crossing; a preview
/// is cancelled and meets its deadline as a thumbnail does.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct RemoteQuickLookTests {
    let ssh: LoopbackSSH
    let files: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        files = try ssh.subfolder("files")
        for name in ["pages12.pdf", "clip.mp4", "members.zip", "landscape.jpg", "long-1080p.mp4"] {
            try FileManager.default.copyItem(atPath: TestEnvironment.fixtures.appendingPathComponent(name).path, toPath: files + "/" + name)
        }
    }

    @Test func pagesFramesRegionsAndMembersAreMadeOnTheRemote() async throws {
        defer { ssh.stop() }
        let place = try await ssh.place(files)
        defer { place.disconnect() }
        let previews = try #require(place.previews, "a remote place makes previews")
        let box = PixelSize(width: 400, height: 300)
        let before = place.traffic
        let page = try await previews.page(path: files + "/pages12.pdf", index: 6, box: box)
        let pageBytes = place.traffic.received - before.received
        #expect(page.index == 6 && page.pageCount == 12)
        #expect(page.image.width <= 400 && page.image.height <= 300 && max(page.image.width, page.image.height) >= 290)
        // The picture crossed as PNG, not as the worker's raw pixels.
        #expect(pageBytes < page.image.pixels.count / 2, "\(pageBytes) bytes for \(page.image.pixels.count) bytes of pixels")
        let frame = try await previews.frame(path: files + "/clip.mp4", seconds: 0.5, box: box)
        #expect(frame.image.width > 16 && (frame.duration ?? 0) > 0)
        let region = try await previews.region(path: files + "/landscape.jpg", box: PixelSize(width: 200, height: 200), zoom: 2, centerX: 0.5, centerY: 0.5)
        #expect(region.image.width == 200 && region.fullSize.width > 200)
        let members = try await previews.members(path: files + "/members.zip")
        #expect(!members.members.isEmpty)
        let facts = try await previews.mediaFacts(path: files + "/clip.mp4")
        #expect((facts.duration ?? 0) > 0)
        // A preview that has no remote form is refused there, not run.
        await #expect(throws: ThumbnailError.self) {
            _ = try await previews.edit(.rotate(quarterTurns: 1, flip: false), path: files + "/landscape.jpg", output: files + "/out.jpg")
        }
        // A file that is not there fails with the worker's reason.
        await #expect(throws: ThumbnailError.self) { _ = try await previews.page(path: files + "/none.pdf", index: 0, box: box) }
    }

    @Test func textLinesAreReadOnTheRemoteAWindowAtATime() async throws {
        defer { ssh.stop() }
        let lines = (0..<5000).map { "line \($0)" }.joined(separator: "\n") + "\n"
        LoopbackSSH.write(files + "/log.txt", Array(lines.utf8))
        LoopbackSSH.write(files + "/caf\u{E9}.txt", Array("un\ndeux\n".utf8))
        _ = mkfifo(files + "/fifo", 0o644)
        let place = try await ssh.place(files)
        defer { place.disconnect() }
        let before = place.traffic.received
        let middle = try await place.textLines(files + "/log.txt", from: 4000, count: 3)
        #expect(middle.first == 4000 && middle.lines.map { String(decoding: $0, as: UTF8.self) } == ["line 4000", "line 4001", "line 4002"])
        #expect(place.traffic.received - before < 1000, "three lines crossed, not the file")
        let end = try await place.textLines(files + "/log.txt", from: Int.max / 2, count: 10)
        #expect(end.total == 5000 && end.first == 4990 && end.lines.count == 10)
        let small = try await place.textLines(files + "/caf\u{E9}.txt", from: 0, count: 10)
        #expect(small.lines == [Array("un".utf8), Array("deux".utf8)] && small.total == 2)
        let started = Date()
        do {
            _ = try await place.textLines(files + "/fifo", from: 0, count: 10)
            Issue.record("a FIFO was read")
        } catch {
            #expect(error.code == .unsupported && Date().timeIntervalSince(started) < 10, "refused, not read until a deadline: \(error.message)")
        }
    }

    @Test func aPreviewIsCancelledAndMeetsItsDeadline() async throws {
        defer { ssh.stop() }
        // A deadline far enough from "at once" that a busy machine does not blur the two.
        let place = try await ssh.place(files, thumbnailDeadline: 6)
        defer { place.disconnect() }
        let previews = try #require(place.previews)
        let servers = ssh.servers()
        try #require(!servers.isEmpty)
        for pid in servers { kill(pid, SIGSTOP) }
        // Cancelled: the call ends at once, long before the deadline.
        let started = Date()
        let task = Task { try await previews.frame(path: files + "/long-1080p.mp4", seconds: 3, box: PixelSize(width: 640, height: 360)) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(Date().timeIntervalSince(started) < 4)
        // Left alone, it fails past the deadline rather than hanging.
        let leftAlone = Date()
        do {
            _ = try await previews.page(path: files + "/pages12.pdf", index: 0, box: PixelSize(width: 100, height: 100))
            Issue.record("a stopped remote answered")
        } catch let error as ThumbnailError {
            #expect(error.code == .timedOut && error.reason.contains("127.0.0.1 is not responding"), "\(error.reason)")
        }
        #expect(Date().timeIntervalSince(leftAlone) < 20)
        for pid in servers { kill(pid, SIGCONT) }
        let page = try await previews.page(path: files + "/pages12.pdf", index: 0, box: PixelSize(width: 100, height: 100))
        #expect(page.pageCount == 12, "the same link answers again")
    }

    /// The browser on `ssh://…`: space on a remote text file shows its lines (read there, the
    /// end found there), then the next file, a PDF, its pages, as on a local folder.
    @Test func theBrowsersQuickLookWorksOnARemoteFolder() throws {
        defer { ssh.stop() }
        LoopbackSSH.write(files + "/notes.txt", Array((0..<3000).map { "remote line \($0 + 1)" }.joined(separator: "\n").utf8))
        for name in ["clip.mp4", "members.zip", "landscape.jpg", "long-1080p.mp4"] { unlink(files + "/" + name) }
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(ssh.url(files))'", columns: 120, rows: 35,
                                      environment: ["QLBROWSE_SSH_COMMAND": ssh.sshCommand, "QLBROWSE_REMOTE_COMMAND": ssh.remoteCommand])
        #expect(session.waitFor(20) { $0.contains("notes.txt") && $0.contains("pages12.pdf") }, "\(session.screen())")
        session.send("Space")
        #expect(session.waitFor(20) { $0.contains("lines 1–") && $0.contains("remote line 1") }, "\(session.screen())")
        session.send("G")
        #expect(session.waitFor(10) { $0.contains("remote line 3000") && $0.contains("of 3000") }, "\(session.screen())")
        session.send("Right")
        #expect(session.waitFor(20) { $0.contains("page 1/12") }, "\(session.screen())")
        session.send("G")
        #expect(session.waitFor(10) { $0.contains("page 12/12") }, "\(session.screen())")
        session.send("q")
        session.send("q")
        #expect(session.waitFor(10) { $0.contains("EXITED:0") }, "\(session.screen())")
    }
}
