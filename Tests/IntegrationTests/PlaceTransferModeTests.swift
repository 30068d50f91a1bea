import FileSystemKit
import Foundation
import Places
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Copies between places keep the permission bits (#26), as scp and rsync do, over a real sshd on
/// loopback: a 0600 file and a 0750 folder holding a 0640 file and a read-only (0555) folder
/// arrive with those modes up to a remote, back down, between two remotes (`qlbrowse files
/// copy`), and to, from and within an SFTP server; a copy's file is 0600 until its last piece.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct PlaceTransferModeTests {
    let ssh: LoopbackSSH
    let remote: String
    let local: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = try ssh.subfolder("remote")
        local = try ssh.subfolder("local")
    }

    /// The permission bits of `path` (nil: nothing there).
    private func mode(_ path: String) -> UInt32? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt32(info.st_mode & 0o7777) : nil
    }

    private func chmod(_ path: String, _ mode: mode_t) { _ = SystemKit.chmod(path, mode) }

    /// `key` (0600) and `album` (0750: `photo.jpg` 0640, `sealed` 0555 holding `inside.txt` 0600) in `folder`.
    private func makeTree(in folder: String) throws {
        LoopbackSSH.write(folder + "/key", Array("secret".utf8))
        chmod(folder + "/key", 0o600)
        try FileManager.default.createDirectory(atPath: folder + "/album/sealed", withIntermediateDirectories: true)
        LoopbackSSH.write(folder + "/album/photo.jpg", Array("photo".utf8))
        LoopbackSSH.write(folder + "/album/sealed/inside.txt", Array("inside".utf8))
        chmod(folder + "/album/photo.jpg", 0o640)
        chmod(folder + "/album/sealed/inside.txt", 0o600)
        chmod(folder + "/album/sealed", 0o555)
        chmod(folder + "/album", 0o750)
    }

    /// The modes `makeTree` gave, as found under `folder`.
    private func expectTree(in folder: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = ["key", "album", "album/photo.jpg", "album/sealed", "album/sealed/inside.txt"].map { mode(folder + "/" + $0) }
        #expect(found == [0o600, 0o750, 0o640, 0o555, 0o600], "\(what): \(found.map { $0.map { String($0, radix: 8) } ?? "missing" })",
                sourceLocation: sourceLocation)
    }

    /// Lets the test's folders be removed (a 0555 folder's file cannot be unlinked).
    private func openUp(_ folders: [String]) {
        for folder in folders { chmod(folder + "/album/sealed", 0o755) }
    }

    @Test func theFilesCommandKeepsModesUpDownAndBetweenRemotes() throws {
        defer { ssh.stop() }
        try makeTree(in: local)
        let config = try ssh.configHome()
        let environment = ["XDG_CONFIG_HOME": config, "XDG_DATA_HOME": ssh.folder.path + "/local-data", "XDG_STATE_HOME": ssh.folder.path + "/state"]
        let up = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "copy", local + "/key", local + "/album", ssh.url(remote)], environment: environment)
        #expect(up.status == 0, "\(up.stderr)")
        expectTree(in: remote, "up")
        let relay = try ssh.relay()
        defer { relay.stop() }
        try FileManager.default.createDirectory(atPath: remote + "/other", withIntermediateDirectories: true)
        let across = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "copy", ssh.url(remote + "/key"), ssh.url(remote + "/album"),
                                                                    ssh.url(remote + "/other", port: relay.port)], environment: environment)
        #expect(across.status == 0, "\(across.stderr)")
        expectTree(in: remote + "/other", "between remotes")
        try FileManager.default.createDirectory(atPath: local + "/back", withIntermediateDirectories: true)
        let down = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "copy", ssh.url(remote + "/other/key"), ssh.url(remote + "/other/album"),
                                                                  local + "/back"], environment: environment)
        #expect(down.status == 0, "\(down.stderr)")
        expectTree(in: local + "/back", "down")
        openUp([local, remote, remote + "/other", local + "/back"])
    }

    @Test func sftpCopiesKeepModesBothWaysAndOnTheServer() async throws {
        defer { ssh.stop() }
        try makeTree(in: local)
        let place = try await ssh.sftpPlace(remote)
        defer { place.disconnect() }
        let sources = [local + "/key", local + "/album"]
        let up = await PlaceTransfer(from: LocalPlace(), to: place).copy(FileOperation(kind: .copy, sources: sources, destination: remote),
                                                                         events: FileOperationEvents())
        #expect(up.done == sources, "\(up.summary) \(up.failures)")
        expectTree(in: remote, "up over SFTP")
        // Within the server (copy-data, or pieces when the server has none).
        try FileManager.default.createDirectory(atPath: remote + "/copy", withIntermediateDirectories: true)
        let within = await PlaceTransfer(from: place, to: place).copy(FileOperation(kind: .copy, sources: [remote + "/key", remote + "/album"],
                                                                                    destination: remote + "/copy"), events: FileOperationEvents())
        #expect(within.done.count == 2, "\(within.summary) \(within.failures)")
        expectTree(in: remote + "/copy", "within the SFTP server")
        // To another SFTP place, and down.
        let other = try await ssh.sftpPlace(remote)
        defer { other.disconnect() }
        try FileManager.default.createDirectory(atPath: remote + "/other", withIntermediateDirectories: true)
        let across = await PlaceTransfer(from: place, to: other).copy(FileOperation(kind: .copy, sources: [remote + "/key", remote + "/album"],
                                                                                    destination: remote + "/other"), events: FileOperationEvents())
        #expect(across.done.count == 2, "\(across.summary) \(across.failures)")
        expectTree(in: remote + "/other", "between SFTP places")
        try FileManager.default.createDirectory(atPath: local + "/back", withIntermediateDirectories: true)
        let down = await PlaceTransfer(from: place, to: LocalPlace()).copy(FileOperation(kind: .copy, sources: [remote + "/key", remote + "/album"],
                                                                                         destination: local + "/back"), events: FileOperationEvents())
        #expect(down.done.count == 2, "\(down.summary) \(down.failures)")
        expectTree(in: local + "/back", "down over SFTP")
        openUp([local, remote, remote + "/copy", remote + "/other", local + "/back"])
    }

    /// A copy's file on its way: 0600 after its first piece (whatever the umask and the final
    /// mode), its own mode after the last: through this computer, a remote and an SFTP server.
    @Test func aFileOnItsWayIsPrivateUntilItsLastPiece() async throws {
        defer { ssh.stop() }
        let remotePlace = try await ssh.place(remote)
        defer { remotePlace.disconnect() }
        let sftp = try await ssh.sftpPlace(remote)
        defer { sftp.disconnect() }
        let places: [(String, any Place, String)] = [("here", LocalPlace(), local), ("remote", remotePlace, remote), ("SFTP", sftp, remote + "/s")]
        try FileManager.default.createDirectory(atPath: remote + "/s", withIntermediateDirectories: true)
        for (what, place, folder) in places {
            let path = folder + "/.photo.jpg.part"
            try await place.writeChunk(Array("first".utf8), to: path, at: 0, last: false, mode: 0o644)
            #expect(mode(path) == 0o600, "\(what): on its way \(mode(path).map { String($0, radix: 8) } ?? "missing")")
            try await place.writeChunk(Array("last".utf8), to: path, at: 5, last: true, mode: 0o644)
            #expect(mode(path) == 0o644, "\(what): done \(mode(path).map { String($0, radix: 8) } ?? "missing")")
            // A folder's mode is set by itself (after its contents are in).
            try FileManager.default.createDirectory(atPath: folder + "/f", withIntermediateDirectories: true)
            try await place.setMode(folder + "/f", to: 0o711)
            #expect(mode(folder + "/f") == 0o711, "\(what): folder")
        }
    }
}
