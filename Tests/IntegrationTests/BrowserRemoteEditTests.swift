import Foundation
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Quick Look's edits in a remote tab (#26), over a real sshd on loopback: a private (0600)
/// photo on the remote turned right and saved in place keeps its mode there, its original goes
/// to the remote's trash whole, no temporary stays, and `U` puts the original back.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct BrowserRemoteEditTests {
    let ssh: LoopbackSSH
    let remote: String
    let local: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = try ssh.subfolder("remote-files")
        local = try ssh.subfolder("local-files")
    }

    private func mode(_ path: String) -> UInt32? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt32(info.st_mode & 0o7777) : nil
    }

    @Test func aRemotePhotoTurnedInPlaceKeepsItsModeAndUPutsItsOriginalBack() throws {
        defer { ssh.stop() }
        let photo = remote + "/landscape.jpg"
        try FileManager.default.copyItem(atPath: TestEnvironment.fixtures.appendingPathComponent("landscape.jpg").path, toPath: photo)
        _ = SystemKit.chmod(photo, 0o600)
        let original = try Data(contentsOf: URL(fileURLWithPath: photo))
        LoopbackSSH.write(local + "/here.txt", Array("here".utf8))
        let session = try ssh.browser(on: local)
        #expect(session.waitFor(60) { $0.contains("here.txt") }, "\(session.screen())")
        #expect(session.connect(to: ssh.url(remote)), "the connect prompt:\n\(session.screen())")
        #expect(session.waitFor(60) { $0.contains("[2 remote-files]") && $0.contains("landscape.jpg") }, "\(session.screen())")
        session.send("Space")
        #expect(session.waitFor(30) { $0.contains("e edit") }, "\(session.screen())")
        session.type("e")
        #expect(session.waitFor(10) { $0.contains("editing: no change yet") }, "\(session.screen())")
        session.type("r")
        #expect(session.waitFor(10) { $0.contains("editing: turned right") }, "\(session.screen())")
        session.send("Enter")
        #expect(session.waitFor(10) { $0.contains("save: r replace the original") }, "\(session.screen())")
        session.type("r")
        #expect(session.waitFor(60) { $0.contains("the original is in the Trash (U puts it back)") }, "\(session.screen())")
        let trashed = ssh.folder.path + "/remote-data/Trash/files/landscape.jpg"
        #expect((try? Data(contentsOf: URL(fileURLWithPath: trashed))) == original, "the original is whole in the remote's trash")
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) != original && mode(photo) == 0o600,
                "turned, still private: \(mode(photo).map { String($0, radix: 8) } ?? "missing")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: remote) == ["landscape.jpg"], "no temporary left")
        session.type("U")
        #expect(session.waitFor(30) { $0.contains("the original landscape.jpg is back") }, "\(session.screen())")
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == original && mode(photo) == 0o600, "U puts the original back")
        session.send("q")
    }
}
