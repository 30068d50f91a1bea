import Foundation
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The browser shows a watched folder's changes without a key (#26): a file made in a remote
/// folder over ssh (the remote's own inotify, `.watch` over the link) and one removed there; a
/// file made in a local folder (the local place's inotify); one made in a folder over plain SFTP
/// (polled: SFTP has no watch), and Ctrl-R.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct BrowserRemoteWatchTests {
    let ssh: LoopbackSSH
    let remote: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = try ssh.subfolder("remote-files")
    }

    private func browser(on target: String) throws -> TmuxSession {
        try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(target)'", columns: 140, rows: 30,
                        environment: ["QLBROWSE_SSH_COMMAND": ssh.sshCommand, "QLBROWSE_REMOTE_COMMAND": ssh.remoteCommand,
                                      "XDG_STATE_HOME": ssh.folder.path + "/state", "XDG_DATA_HOME": ssh.folder.path + "/data",
                                      "XDG_CONFIG_HOME": ssh.folder.path + "/config"])
    }

    @Test func aFileMadeInTheRemoteFolderAppearsOnScreenWithoutAKey() throws {
        defer { ssh.stop() }
        LoopbackSSH.write(remote + "/first.txt", Array("one".utf8))
        LoopbackSSH.write(remote + "/doomed.txt", Array("two".utf8))
        let session = try browser(on: ssh.url(remote))
        #expect(session.waitFor(30) { $0.contains("first.txt") && $0.contains("doomed.txt") && $0.contains("ssh:127.0.0.1") }, "\(session.screen())")
        // The browser asks for the watch once the folder is listed; the remote adds it on the
        // volume's threads: a file made before that is the listing's, not the watch's.
        #expect(ssh.waitForServeInotify(1), "the remote watches the folder")
        LoopbackSSH.write(remote + "/arrived-by-itself.txt", Array("three".utf8))
        unlink(remote + "/doomed.txt")
        #expect(session.waitFor(15) { $0.contains("arrived-by-itself.txt") && !$0.contains("doomed.txt") }, "no key was pressed:\n\(session.screen())")
        session.send("q")
        #expect(session.waitFor(10) { $0.contains("EXITED:0") }, "\(session.screen())")
    }

    @Test func aFileMadeInALocalFolderAppearsOnScreenWithoutAKey() throws {
        defer { ssh.stop() }
        let local = try ssh.subfolder("local-files")
        LoopbackSSH.write(local + "/first.txt", Array("one".utf8))
        let session = try browser(on: local)
        #expect(session.waitFor(20) { $0.contains("first.txt") }, "\(session.screen())")
        LoopbackSSH.write(local + "/arrived-by-itself.txt", Array("two".utf8))
        #expect(session.waitFor(15) { $0.contains("arrived-by-itself.txt") }, "no key was pressed:\n\(session.screen())")
        session.send("q")
        #expect(session.waitFor(10) { $0.contains("EXITED:0") }, "\(session.screen())")
    }

    /// SFTP has no watch: the folder is polled (`SFTPPlace.watch`), so a file made there shows
    /// by itself within a poll or two; Ctrl-R lists it again at once.
    @Test func anSFTPFolderIsPolledAndCtrlRListsItAgain() throws {
        defer { ssh.stop() }
        try FileManager.default.createDirectory(atPath: remote + "/inner", withIntermediateDirectories: true)
        LoopbackSSH.write(remote + "/inner/first.txt", Array("one".utf8))
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --sftp --graphics symbols '\(ssh.url(remote + "/inner"))'", columns: 140, rows: 30,
                                      environment: ["QLBROWSE_SSH_COMMAND": ssh.sshCommand, "XDG_STATE_HOME": ssh.folder.path + "/state",
                                                    "XDG_CONFIG_HOME": ssh.folder.path + "/config", "XDG_CACHE_HOME": ssh.folder.path + "/cache"])
        #expect(session.waitFor(30) { $0.contains("first.txt") && $0.contains("sftp:127.0.0.1") }, "\(session.screen())")
        LoopbackSSH.write(remote + "/inner/later.txt", Array("two".utf8))
        #expect(session.waitFor(45) { $0.contains("later.txt") }, "no key was pressed:\n\(session.screen())")
        session.send("C-r")
        #expect(session.waitFor(15) { $0.contains("listed again") && $0.contains("later.txt") }, "\(session.screen())")
        session.send("q")
        #expect(session.waitFor(10) { $0.contains("EXITED:0") }, "\(session.screen())")
    }
}
