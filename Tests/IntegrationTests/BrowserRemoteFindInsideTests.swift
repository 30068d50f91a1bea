import Foundation
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Tab in `F` in a remote tab, over a real sshd on loopback (#26): ripgrep runs on the remote,
/// a word in two files is found there (one named in bytes that are not UTF-8, shown escaped),
/// and Esc, with the remote's ripgrep still at work, stops it there.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") && FileManager.default.isExecutableFile(atPath: "/usr/bin/rg"),
                             "needs openssh-server and ripgrep (scripts/install-deps test)"))
struct BrowserRemoteFindInsideTests {
    let ssh: LoopbackSSH
    let remote: String
    let local: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = try ssh.subfolder("remote-files", creating: "deep")
        local = try ssh.subfolder("local-files")
    }

    @Test func tabInARemoteTabFindsTheWordThereAndEscStopsTheRemotesRipgrep() throws {
        defer { ssh.stop() }
        LoopbackSSH.write(remote + "/deep/" + RemoteFindTests.oddName, Array("the marmalade jar\n".utf8))
        LoopbackSSH.write(remote + "/recipe.md", Array("Marmalade: oranges\n".utf8))
        LoopbackSSH.write(remote + "/other.txt", Array("nothing\n".utf8))
        LoopbackSSH.write(local + "/here.bin", [1])
        // 60 files of three seconds each: ripgrep is still at work when Esc comes (and would be past
        // the 30 s this test waits for it to stop: its own deadline is 60 s).
        let (remoteCommand, _) = try SlowRipgrep.make(in: ssh, files: remote, slowFiles: 60)
        let session = try ssh.browser(on: local, environment: ["QLBROWSE_REMOTE_COMMAND": remoteCommand])
        #expect(session.waitFor(20) { $0.contains("here.bin") }, "\(session.screen())")
        #expect(session.connect(to: ssh.url(remote)), "the connect prompt:\n\(session.screen())")
        #expect(session.waitFor(30) { $0.contains("recipe.md") && $0.contains("[2 remote-files]") }, "the remote in tab 2:\n\(session.screen())")
        session.type("F")
        session.send("Tab")
        #expect(session.waitFor(10) { $0.contains("Files containing, below ssh://127.0.0.1") }, "\(session.screen())")
        session.type("marmalade")
        #expect(session.waitFor(60) { $0.contains("    recipe.md") && $0.contains("deep/caf\\xE9.txt") && $0.contains("2 files contain it · searching") },
                "both files, found on the remote:\n\(session.screen())")
        #expect(!session.screen().contains("not done yet"))
        let running = SlowRipgrep.running(below: remote)
        #expect(!running.isEmpty, "the remote's ripgrep is still at work")
        session.send("Escape")
        #expect(session.waitFor(10) { !$0.contains("Files containing") }, "Esc closes the search:\n\(session.screen())")
        #expect(TmuxSession.eventually(30) { SlowRipgrep.running(below: remote).isEmpty },
                "Esc stopped the remote's ripgrep: \(SlowRipgrep.running(below: remote))")
        session.type("q")
        #expect(session.waitFor(10) { $0.contains("EXITED:0") }, "\(session.screen())")
    }
}
