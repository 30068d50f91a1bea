import FileSystemKit
import Foundation
import Places
import SystemKit
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// Quick Look's edits of a file in a remote tab (#26), over a real sshd on loopback: a private
/// (0600) JPEG turned on the remote keeps its mode, its original goes to the remote's trash and
/// comes back as `U` puts it (the edited one to the trash, the original restored), a copy lands
/// beside it as "photo (edited).jpg" with the same mode, four turns give the original's pixels,
/// no temporary stays there; an SFTP place (no file identities) is refused with why.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct PlaceEditSaverTests {
    let ssh: LoopbackSSH
    let remote: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = try ssh.subfolder("remote")
    }

    private func mode(_ path: String) -> UInt32? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt32(info.st_mode & 0o7777) : nil
    }

    private func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: remote)) ?? []).sorted() }

    private func samePixels(_ one: String, _ other: String) -> String {
        TestEnvironment.run("/usr/bin/compare", ["-metric", "AE", one, other, "null:"]).stderr
    }

    @Test func aPrivatePhotoTurnedOnARemoteKeepsItsModeAndItsOriginalComesBack() async throws {
        defer { ssh.stop() }
        let photo = remote + "/photo.jpg", original = ssh.folder.path + "/original.jpg"
        try FileManager.default.copyItem(atPath: TestEnvironment.fixtures.appendingPathComponent("portrait-exif6.jpg").path, toPath: photo)
        try FileManager.default.copyItem(atPath: photo, toPath: original)
        _ = SystemKit.chmod(photo, 0o600)
        let place = try await ssh.place(remote, callDeadline: 30)
        defer { place.disconnect() }
        let pool = WorkerPool(size: 1, executable: TestEnvironment.thumbnailer)
        let turn = FileEdit.rotate(quarterTurns: 1, flip: false)
        let saver = PlaceEditSaver(place: place, placement: .replace, generator: PreviewGenerator(pool: pool))
        let once = try await saver.apply([turn], to: photo)
        let trashed = try #require(once.trashedItem, "the original went to the remote's trash")
        #expect(once.output == photo && mode(photo) == 0o600, "mode \(mode(photo).map { String($0, radix: 8) } ?? "missing")")
        #expect(!samePixels(photo, original).hasPrefix("0"), "the photo is turned")
        #expect(samePixels(trashed.trashedPath, original).hasPrefix("0") && trashed.trashedPath.hasPrefix(ssh.folder.path + "/remote-data/Trash"),
                "\(trashed.trashedPath)")
        #expect(names() == ["photo.jpg"], "no temporary left: \(names())")
        // U: the edited one to the trash, the original back under its name.
        _ = try await place.trash(photo)
        #expect(try await place.restore(trashed) == photo)
        #expect(samePixels(photo, original).hasPrefix("0") && mode(photo) == 0o600)
        // A copy beside it, private too; four turns are the original's pixels.
        let copy = try await PlaceEditSaver(place: place, placement: .copy, generator: PreviewGenerator(pool: pool)).apply([turn], to: photo)
        #expect(copy.output == remote + "/photo (edited).jpg" && mode(copy.output) == 0o600 && copy.trashedItem == nil)
        _ = try await saver.apply([turn, turn, turn, turn], to: photo)
        #expect(samePixels(photo, original).hasPrefix("0"), "four turns are the original")
        #expect(names() == ["photo (edited).jpg", "photo.jpg"], "no temporary left: \(names())")
        // SFTP has no file identities: refused, the original untouched.
        let sftp = try await ssh.sftpPlace(remote)
        defer { sftp.disconnect() }
        await #expect(throws: EditError.self) { _ = try await PlaceEditSaver(place: sftp, placement: .replace, generator: PreviewGenerator(pool: pool)).apply([turn], to: photo) }
        #expect(samePixels(photo, original).hasPrefix("0") && names() == ["photo (edited).jpg", "photo.jpg"])
        await pool.shutdown(waitSeconds: 2)
    }
}
