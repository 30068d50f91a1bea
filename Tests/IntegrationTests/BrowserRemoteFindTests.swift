import Foundation
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `F` in a remote tab, over a real sshd on loopback (#26): the remote's `qlbrowse serve` walks
/// the remote folder, the match two folders down is listed under the tab's remote folder, and
/// Enter opens the match's folder in that tab with the cursor on it.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct BrowserRemoteFindTests {
    let ssh: LoopbackSSH
    let remote: String
    let local: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = try ssh.subfolder("remote-files", creating: "deep/er")
        local = try ssh.subfolder("local-files")
    }

    @Test func findInARemoteTabListsTheRemoteMatchAndEnterOpensItsFolder() throws {
        defer { ssh.stop() }
        LoopbackSSH.write(remote + "/deep/er/treasure-map.txt", Array("x".utf8))
        LoopbackSSH.write(remote + "/top.txt", [])
        LoopbackSSH.write(local + "/here.bin", [1])
        let session = try ssh.browser(on: local)
        #expect(session.waitFor(20) { $0.contains("here.bin") }, "\(session.screen())")
        #expect(session.connect(to: ssh.url(remote)), "the connect prompt:\n\(session.screen())")
        #expect(session.waitFor(30) { $0.contains("top.txt") && $0.contains("[2 remote-files]") }, "the remote in tab 2:\n\(session.screen())")
        session.type("F")
        #expect(session.waitFor(10) { $0.contains("Find below ssh://127.0.0.1") }, "the search names the remote folder:\n\(session.screen())")
        session.type("treasure")
        #expect(session.waitFor(20) { $0.contains("deep/er/treasure-map.txt") && $0.contains("1 of 4") },
                "the remote's match, walked there:\n\(session.screen())")
        #expect(!session.screen().contains("not done yet"))
        session.send("Enter")
        #expect(session.waitFor(20) { $0.contains("treasure-map.txt") && !$0.contains("Find below") && $0.contains("ssh:127.0.0.1") },
                "Enter opens the match's folder in the remote tab:\n\(session.screen())")
        #expect(session.screen().contains("er"))
        session.type("q")
        #expect(session.waitFor(10) { $0.contains("EXITED:0") }, "\(session.screen())")
    }
}
