import Foundation
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A move from a tab over plain SFTP (#26): the server has no trash, so `x` there and `p` in a
/// local tab ask first, the whole question on the status line. n moves nothing (the cut is kept);
/// y copies, checks, and only then deletes the original for good on the server. The file's name
/// is not UTF-8 and arrives as the same bytes.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct BrowserSFTPMoveTests {
    /// `caf\xE9.bin`: Latin-1, not UTF-8.
    static let odd = String(fileSystemBytes: Array("caf".utf8) + [0xE9] + Array(".bin".utf8))

    @Test func aMoveFromAnSFTPTabAsksAndYMovesTheFileWhileNMovesNothing() throws {
        let ssh = try #require(LoopbackSSH(), "sshd did not start")
        defer { ssh.stop() }
        let remote = try ssh.subfolder("remote-files")
        let local = try ssh.subfolder("local-files")
        let pattern = (0..<(3 << 20) + 4321).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ $0 >> 10) }
        LoopbackSSH.write(remote + "/" + Self.odd, pattern)
        LoopbackSSH.write(remote + "/other.txt", Array("other".utf8))
        LoopbackSSH.write(local + "/here.txt", Array("here".utf8))
        let bytes = { (path: String) in FileDescriptorReader.readFile(path, upTo: 1 << 30) }
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --sftp --graphics symbols '\(local)'", columns: 140, rows: 30,
                                      environment: ["QLBROWSE_SSH_COMMAND": ssh.sshCommand, "XDG_STATE_HOME": ssh.folder.path + "/local-state",
                                                    "XDG_DATA_HOME": ssh.folder.path + "/local-data", "XDG_CONFIG_HOME": ssh.folder.path + "/local-config"])
        #expect(session.waitFor(60) { $0.contains("here.txt") }, "\(session.screen())")
        #expect(session.connect(to: ssh.url(remote)), "the connect prompt:\n\(session.screen())")
        #expect(session.waitFor(30) { $0.contains("other.txt") && $0.contains("[2 remote-files]") }, "the SFTP tab:\n\(session.screen())")
        // x on the odd name (the filter puts the cursor there), tab 1, p: asked.
        session.type("/caf")
        session.send("Enter")
        #expect(session.waitFor(30) { $0.contains("1/1 ") }, "\(session.screen())")
        session.type("x")
        session.type("1")
        #expect(session.waitFor(30) { $0.contains("here.txt") && !$0.contains("sftp:127.0.0.1") }, "tab 1 is local:\n\(session.screen())")
        session.type("p")
        #expect(session.waitFor(30) { $0.contains("move 1 item from sftp:127.0.0.1?") && $0.contains("deleted for good") && $0.contains("(y/N)") },
                "the question, whole, on the status line:\n\(session.screen())")
        session.type("n")
        #expect(session.waitFor(30) { $0.contains("nothing moved") }, "\(session.screen())")
        // Nothing happens behind the answer: give a started job time to show itself.
        usleep(2_000_000)
        #expect(bytes(remote + "/" + Self.odd) == pattern && bytes(local + "/" + Self.odd) == nil, "n: nothing copied, nothing deleted")
        #expect(DirectoryEntries.list(local).map(\.name).sorted() == ["here.txt"], "\(DirectoryEntries.list(local).map(\.name))")
        // The cut is kept: p asks again, and y moves.
        session.type("p")
        #expect(session.waitFor(30) { $0.contains("move 1 item from sftp:127.0.0.1?") }, "asked again:\n\(session.screen())")
        session.type("y")
        #expect(TmuxSession.eventually(60) { bytes(local + "/" + Self.odd) == pattern && bytes(remote + "/" + Self.odd) == nil },
                "moved: here byte for byte, gone on the server:\n\(session.screen())")
        #expect(DirectoryEntries.list(local).map(\.name).sorted() == [Self.odd, "here.txt"].sorted(), "no temporary left")
        #expect(bytes(remote + "/other.txt") == Array("other".utf8))
        session.type("q")
        #expect(session.waitFor(30) { $0.contains("EXITED:0") }, "\(session.screen())")
    }
}
