import Foundation
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Local and remote folders in tabs of one browser, over a real sshd on loopback (#26): the
/// volumes view's `C` connects to `ssh://…` and opens the remote in a second tab; `y` in one tab
/// and `p` in the other copies across (both ways, the bytes identical); `x` and `p` move, the
/// source removed once its copy is in place; a refused connect is a message, the browser runs on.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct BrowserRemoteTabsTests {
    let ssh: LoopbackSSH
    /// The remote's folder and this computer's.
    let remote: String
    let local: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = try ssh.subfolder("remote-files")
        local = try ssh.subfolder("local-files")
    }

    private func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// Waits (up to `seconds`) until `condition` holds.
    private func eventually(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool { TmuxSession.eventually(seconds, condition) }

    private func browser(on folder: String) throws -> TmuxSession { try ssh.browser(on: folder) }

    private func connect(_ session: TmuxSession, to address: String) {
        #expect(session.connect(to: address), "the connect prompt:\n\(session.screen())")
    }

    @Test func aRemoteTabBesideALocalOneCopiesBothWaysAndMoves() throws {
        defer { ssh.stop() }
        let here = (0..<(2 << 20) + 12345).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let there = (0..<(1 << 20) + 777).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        FileManager.default.createFile(atPath: local + "/here.bin", contents: Data(here))
        FileManager.default.createFile(atPath: remote + "/there.bin", contents: Data(there))
        FileManager.default.createFile(atPath: remote + "/zmove.bin", contents: Data(there.reversed()))
        let session = try browser(on: local)
        #expect(session.waitFor(60) { $0.contains("here.bin") }, "\(session.screen())")
        connect(session, to: ssh.url(remote))
        #expect(session.waitFor(30) { $0.contains("there.bin") && $0.contains("[2 remote-files]") && $0.contains("connected to ssh://127.0.0.1") },
                "the remote in tab 2:\n\(session.screen())")
        // Local → remote: y in tab 1, p in tab 2.
        session.type("1")
        #expect(session.waitFor(30) { $0.contains("here.bin") && !$0.contains("ssh:127.0.0.1") }, "tab 1 is local:\n\(session.screen())")
        session.type("y")
        session.type("2")
        #expect(session.waitFor(30) { $0.contains("there.bin") && $0.contains("ssh:127.0.0.1") }, "\(session.screen())")
        session.type("p")
        #expect(eventually { contents(remote + "/here.bin") == here }, "the copy arrived on the remote, byte for byte:\n\(session.screen())")
        #expect(session.waitFor(60) { $0.contains("here.bin") && $0.contains("there.bin") }, "\(session.screen())")
        // Remote → local: the filter puts the cursor on there.bin, y, tab 1, p.
        session.type("/there")
        session.send("Enter")
        #expect(session.waitFor(30) { $0.contains("1/1 ") && $0.contains("there.bin") }, "\(session.screen())")
        session.type("y")
        session.type("1")
        #expect(session.waitFor(30) { $0.contains("here.bin") && !$0.contains("ssh:127.0.0.1") }, "\(session.screen())")
        session.type("p")
        #expect(eventually { contents(local + "/there.bin") == there }, "the copy arrived here, byte for byte:\n\(session.screen())")
        // A move, remote → local: the source goes once its copy is here, whole.
        session.type("2")
        #expect(session.waitFor(30) { $0.contains("ssh:127.0.0.1") }, "\(session.screen())")
        session.send("Escape")
        // The filter cleared before `/` is typed: an Escape and a `/` read together are Alt-/ (seen under load).
        #expect(session.waitFor(30) { $0.contains("zmove.bin") && $0.contains("/3 ") }, "the filter cleared:\n\(session.screen())")
        session.type("/zmove")
        session.send("Enter")
        #expect(session.waitFor(30) { $0.contains("1/1 ") && $0.contains("zmove.bin") }, "\(session.screen())")
        session.type("x")
        session.type("1")
        #expect(session.waitFor(30) { $0.contains("here.bin") && !$0.contains("ssh:127.0.0.1") }, "\(session.screen())")
        session.type("p")
        #expect(eventually { contents(local + "/zmove.bin") == Array(there.reversed()) && contents(remote + "/zmove.bin") == nil },
                "moved: here whole, gone there:\n\(session.screen())")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: local)) ?? []
        #expect(left.sorted() == ["here.bin", "there.bin", "zmove.bin"], "no temporary left: \(left)")
        // The one undo journal: `z` in the remote tab undoes the last step, a trash on this computer.
        session.type("gd")  // the first entry here: here.bin, to this computer's trash
        #expect(eventually { contents(local + "/here.bin") == nil }, "trashed:\n\(session.screen())")
        session.type("2")
        #expect(session.waitFor(30) { $0.contains("ssh:127.0.0.1") }, "\(session.screen())")
        session.type("z")
        #expect(eventually { contents(local + "/here.bin") == here }, "undone from the remote tab:\n\(session.screen())")
        session.type("q")
        #expect(session.waitFor(30) { $0.contains("EXITED:0") }, "\(session.screen())")
    }

    @Test func aRefusedConnectIsAMessageAndTheBrowserRunsOn() throws {
        defer { ssh.stop() }
        FileManager.default.createFile(atPath: local + "/here.bin", contents: Data([1, 2, 3]))
        let session = try browser(on: local)
        #expect(session.waitFor(60) { $0.contains("here.bin") }, "\(session.screen())")
        // Port 1 on loopback: nothing listens, ssh is refused.
        connect(session, to: "ssh://127.0.0.1:1/tmp")
        #expect(session.waitFor(30) { $0.contains("cannot open 127.0.0.1") }, "the refusal is said:\n\(session.screen())")
        session.send("Escape")
        session.type("j")
        #expect(session.waitFor(30) { $0.contains("here.bin") && !$0.contains("[2 ") }, "still browsing, one tab:\n\(session.screen())")
        // A login refused (no such user: no key of this user is accepted) names the way that works.
        connect(session, to: "ssh://nosuchuser@127.0.0.1:\(ssh.port)/tmp")
        #expect(session.waitFor(30) { $0.contains("ssh was refused without a key") }, "the refusal is said:\n\(session.screen())")
        session.send("Escape")
        session.type("q")
        #expect(session.waitFor(30) { $0.contains("EXITED:0") }, "\(session.screen())")
    }
}
