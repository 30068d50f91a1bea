import Foundation
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The connect prompt (volumes view `C`) makes the command line's choice (`RemoteOpening`): a
/// remote without qlbrowse is browsed over SFTP and its tab says `sftp:HOST`; whatever the
/// mode, no ssh of the browser's is left once it quits; several hosts at once, a copy from one
/// remote's tab to another's arriving byte for byte (#26).
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct BrowserRemoteConnectTests {
    /// Waits (up to `seconds`) until `condition` holds.
    private func eventually(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool { TmuxSession.eventually(seconds, condition) }

    private func folder(_ name: String, in ssh: LoopbackSSH) throws -> String {
        let path = ssh.folder.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The ssh processes the browser started (its descendants named ssh).
    private func sshChildren(of browser: pid_t) -> [pid_t] {
        LoopbackSSH.descendants(of: browser).filter { TmuxSession.command(of: $0) == "ssh" }
    }

    @Test func theConnectPromptFallsBackToSFTPAndLeavesNoSSHAfterQuitting() throws {
        let ssh = try #require(LoopbackSSH(), "sshd did not start")
        defer { ssh.stop() }
        let local = try folder("local-files", in: ssh), remote = try folder("remote-files", in: ssh)
        FileManager.default.createFile(atPath: local + "/here.txt", contents: Data("here".utf8))
        FileManager.default.createFile(atPath: remote + "/over-sftp.txt", contents: Data("there".utf8))
        // The remote's shell finds no qlbrowse (exit 127): the prompt falls back as the command line does.
        let session = try ssh.browser(on: local, environment: ["QLBROWSE_REMOTE_COMMAND": ssh.folder.path + "/no-such-qlbrowse"])
        #expect(session.waitFor(60) { $0.contains("here.txt") }, "\(session.screen())")
        #expect(session.connect(to: ssh.url(remote)), "the connect prompt:\n\(session.screen())")
        #expect(session.waitFor(30) { $0.contains("over-sftp.txt") && $0.contains("[2 remote-files]") && $0.contains("connected to ssh://127.0.0.1") },
                "the remote in tab 2:\n\(session.screen())")
        session.type("1")
        #expect(session.waitFor(30) { $0.contains("here.txt") }, "\(session.screen())")
        session.type("2")
        #expect(session.waitFor(30) { $0.contains("over-sftp.txt") && $0.contains("sftp:127.0.0.1") }, "over SFTP, said so:\n\(session.screen())")
        #expect(ssh.servers().isEmpty, "no qlbrowse serve runs there")
        let browser = try #require(session.browserPID(), "the browser's process")
        let links = sshChildren(of: browser)
        #expect(!links.isEmpty, "the SFTP link is an ssh of the browser's")
        session.type("q")
        #expect(session.waitFor(30) { $0.contains("EXITED:0") }, "\(session.screen())")
        #expect(eventually(5) { !links.contains(where: TmuxSession.isRunning) }, "no ssh of the browser's survives q: \(links.filter(TmuxSession.isRunning))")
    }

    @Test func twoHostsAndThisComputerInTabsACopyFromOneRemoteToTheOther() throws {
        let hostA = try #require(LoopbackSSH(), "sshd A did not start")
        defer { hostA.stop() }
        let hostB = try #require(LoopbackSSH(), "sshd B did not start")
        defer { hostB.stop() }
        try hostA.trust(hostB)
        let local = try folder("local-files", in: hostA), onA = try folder("a-files", in: hostA), onB = try folder("b-files", in: hostB)
        FileManager.default.createFile(atPath: local + "/here.txt", contents: Data("here".utf8))
        let bytes = (0..<(3 << 20) + 4321).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        FileManager.default.createFile(atPath: onA + "/travels.bin", contents: Data(bytes))
        FileManager.default.createFile(atPath: onB + "/stays.txt", contents: Data("b".utf8))
        let session = try hostA.browser(on: local)
        #expect(session.waitFor(60) { $0.contains("here.txt") }, "\(session.screen())")
        #expect(session.connect(to: hostA.url(onA)), "\(session.screen())")
        #expect(session.waitFor(30) { $0.contains("travels.bin") && $0.contains("[2 a-files]") && $0.contains("connected to ssh://127.0.0.1") },
                "host A in tab 2:\n\(session.screen())")
        #expect(session.connect(to: hostB.url(onB)), "\(session.screen())")
        #expect(session.waitFor(30) { $0.contains("stays.txt") && $0.contains("[3 b-files]") && $0.contains("connected to ssh://127.0.0.1") },
                "host B in tab 3:\n\(session.screen())")
        #expect(hostA.servers().count == 1 && hostB.servers().count == 1, "one qlbrowse serve on each host")
        // Host A → host B: y in tab 2, p in tab 3 (the router's PlaceTransfer between two remotes).
        session.type("2")
        #expect(session.waitFor(30) { $0.contains("travels.bin") && !$0.contains("stays.txt") && $0.contains("ssh:127.0.0.1") }, "tab 2:\n\(session.screen())")
        session.type("/travels")
        session.send("Enter")
        #expect(session.waitFor(30) { $0.contains("1/1 ") && $0.contains("travels.bin") }, "\(session.screen())")
        session.type("y")
        session.type("3")
        #expect(session.waitFor(30) { $0.contains("stays.txt") && $0.contains("ssh:127.0.0.1") }, "tab 3:\n\(session.screen())")
        session.type("p")
        #expect(eventually(60) { FileManager.default.contents(atPath: onB + "/travels.bin").map { [UInt8]($0) } == bytes },
                "the copy arrived on host B, byte for byte:\n\(session.screen())")
        #expect(session.waitFor(60) { $0.contains("travels.bin") && $0.contains("stays.txt") }, "host B's tab shows it:\n\(session.screen())")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: onB)) ?? []
        #expect(left.sorted() == ["stays.txt", "travels.bin"], "no temporary left on B: \(left)")
        #expect(FileManager.default.contents(atPath: onA + "/travels.bin").map { [UInt8]($0) } == bytes, "the source is untouched on A")
        // The local tab is still this computer's.
        session.type("1")
        #expect(session.waitFor(30) { $0.contains("here.txt") && !$0.contains("ssh:127.0.0.1") }, "tab 1 is local:\n\(session.screen())")
        session.type("q")
        #expect(session.waitFor(30) { $0.contains("EXITED:0") }, "\(session.screen())")
    }
}
