import Foundation
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The undo journal across places, over a real sshd on loopback (#26): a copy or move between
/// this computer and a remote, a trash or a rename there, is written in the one journal and `z`
/// / `Z` undo and redo it through the places (the remote's own stamp, rename, trash and restore);
/// a file changed since is not touched and the reason is said; a step on a host not connected
/// (the browser restarted) says so, stays, and is undone once the host is connected again.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct BrowserRemoteUndoTests {
    /// `caf\xE9.bin`: Latin-1, not UTF-8.
    static let oddName = String(fileSystemBytes: Array("caf".utf8) + [0xE9] + Array(".bin".utf8))

    let ssh: LoopbackSSH
    let remote: String
    let local: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = try ssh.subfolder("remote-files")
        local = try ssh.subfolder("local-files")
    }

    /// The file's bytes, opened by the name's own bytes; nil when nothing is there.
    private func contents(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var all: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return all }
            all += buffer[..<count]
        }
    }

    /// What a trash holds (`local-data` or `remote-data`), by name.
    private func trash(_ side: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: ssh.folder.path + "/\(side)-data/Trash/files"))?.sorted() ?? []
    }

    private func eventually(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool { TmuxSession.eventually(seconds, condition) }

    /// The browser on this computer's folder with the remote connected in tab 2, tab 1 shown.
    private func browserWithRemote(waitingFor name: String, environment: [String: String] = [:]) throws -> TmuxSession {
        let session = try ssh.browser(on: local, environment: environment)
        #expect(session.waitFor(60) { $0.contains(name) }, "\(session.screen())")
        #expect(session.connect(to: ssh.url(remote)), "the connect prompt:\n\(session.screen())")
        #expect(session.waitFor(60) { $0.contains("[2 remote-files]") && $0.contains("connected to ssh://127.0.0.1") }, "\(session.screen())")
        showLocal(session)
        // A key for the entry waits until the tab lists it again (under CI's load `y` once came
        // before the local tab's listing, and copied nothing).
        #expect(session.waitFor(60) { !$0.contains("ssh:127.0.0.1") && $0.contains(name) }, "tab 1 lists \(name) again:\n\(session.screen())")
        return session
    }

    /// Waits for the job's ending message: its step is in the journal once it is said.
    private func ended(_ session: TmuxSession, _ message: String) {
        #expect(session.waitFor(60) { $0.contains(message) }, "the job ended:\n\(session.screen())")
    }

    private func showLocal(_ session: TmuxSession) {
        session.type("1")
        #expect(session.waitFor(30) { !$0.contains("ssh:127.0.0.1") }, "tab 1 is local:\n\(session.screen())")
    }

    private func showRemote(_ session: TmuxSession) {
        session.type("2")
        #expect(session.waitFor(30) { $0.contains("ssh:127.0.0.1") }, "tab 2 is the remote:\n\(session.screen())")
    }

    @Test func aCopyAndAMoveBetweenPlacesAreUndoneAndRedone() throws {
        defer { ssh.stop() }
        let here = (0..<300_001).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let there = (0..<200_003).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        LoopbackSSH.write(local + "/" + Self.oddName, here)
        LoopbackSSH.write(remote + "/there.bin", there)
        let session = try browserWithRemote(waitingFor: ".bin")
        // Local → remote, by the name's own bytes; `z` sends the copy to the remote's trash, `Z` brings it back.
        session.type("y")
        showRemote(session)
        session.type("p")
        #expect(eventually { contents(remote + "/" + Self.oddName) == here }, "copied to the remote:\n\(session.screen())")
        ended(session, "copied:")
        session.type("z")
        #expect(session.waitFor(60) { $0.contains("undone: the copy of caf") }, "\(session.screen())")
        #expect(eventually { contents(remote + "/" + Self.oddName) == nil }, "the remote copy is gone:\n\(session.screen())")
        let inTrash = contents(ssh.folder.path + "/remote-data/Trash/files/" + Self.oddName) == here
        #expect(inTrash, "to the remote's own trash, nothing deleted")
        let untouched = contents(local + "/" + Self.oddName) == here
        #expect(untouched, "the original untouched")
        session.type("Z")
        #expect(session.waitFor(60) { $0.contains("redone: the copy of caf") }, "\(session.screen())")
        #expect(eventually { contents(remote + "/" + Self.oddName) == here && trash("remote").isEmpty }, "the copy is back:\n\(session.screen())")
        // Remote → local, a move: `z` puts the source back on the remote, byte for byte, and this copy in this computer's trash.
        session.type("/there")
        session.send("Enter")
        #expect(session.waitFor(30) { $0.contains("1/1 ") && $0.contains("there.bin") }, "\(session.screen())")
        session.type("x")
        // Under CI's load the cut once did not take (the clipboard still held the copy, so `p`
        // pasted that): most likely the key landed while the redo's change relisted the tab and
        // found no entry ("nothing to move here"). As a person would, it is pressed again once
        // the file is listed; the clipboard must then say so.
        if !session.waitFor(10, { $0.contains("1 to move") }) {
            #expect(session.waitFor(30) { $0.contains("there.bin") }, "\(session.screen())")
            session.type("x")
        }
        #expect(session.waitFor(30) { $0.contains("1 to move") }, "there.bin is to move:\n\(session.screen())")
        showLocal(session)
        session.type("p")
        #expect(eventually { contents(local + "/there.bin") == there && contents(remote + "/there.bin") == nil }, "moved here:\n\(session.screen())")
        ended(session, "moved:")
        session.type("z")
        #expect(session.waitFor(60) { $0.contains("undone: the move of there.bin") }, "\(session.screen())")
        #expect(eventually { contents(remote + "/there.bin") == there && contents(local + "/there.bin") == nil },
                "back on the remote, byte for byte:\n\(session.screen())")
        #expect(trash("local") == ["there.bin"] && trash("remote").isEmpty, "the copy here in this computer's trash: \(trash("local"))")
        session.type("Z")
        #expect(session.waitFor(60) { $0.contains("redone: the move of there.bin") }, "\(session.screen())")
        #expect(eventually { contents(local + "/there.bin") == there && contents(remote + "/there.bin") == nil }, "moved again:\n\(session.screen())")
        session.type("q")
        #expect(session.waitFor(30) { $0.contains("EXITED:0") }, "\(session.screen())")
    }

    @Test func aRemoteFileChangedSinceIsNotTouchedAndARemoteTrashIsUndone() throws {
        defer { ssh.stop() }
        LoopbackSSH.write(local + "/note.txt", Array("first".utf8))
        let session = try browserWithRemote(waitingFor: "note.txt")
        session.type("x")
        showRemote(session)
        session.type("p")
        #expect(eventually { contents(remote + "/note.txt") == Array("first".utf8) && contents(local + "/note.txt") == nil },
                "moved to the remote:\n\(session.screen())")
        ended(session, "moved:")
        // Someone changes the copy there: the undo would lose their change, so it touches nothing.
        LoopbackSSH.write(remote + "/note.txt", Array("changed there".utf8))
        session.type("z")
        #expect(session.waitFor(60) { $0.contains("cannot undo the move of note.txt") && $0.contains("note.txt changed since") }, "\(session.screen())")
        usleep(500_000)
        #expect(contents(remote + "/note.txt") == Array("changed there".utf8) && contents(local + "/note.txt") == nil, "nothing touched")
        #expect(trash("local") == ["note.txt"] && trash("remote").isEmpty, "the source still in this computer's trash")
        // A trash on the remote is undone from the remote's trash.
        session.type("gd")
        #expect(eventually { contents(remote + "/note.txt") == nil && trash("remote") == ["note.txt"] }, "trashed there:\n\(session.screen())")
        ended(session, "trashed:")
        session.type("z")
        #expect(session.waitFor(60) { $0.contains("undone: the trashing of note.txt") }, "\(session.screen())")
        #expect(eventually { contents(remote + "/note.txt") == Array("changed there".utf8) && trash("remote").isEmpty }, "back:\n\(session.screen())")
        session.type("q")
        #expect(session.waitFor(30) { $0.contains("EXITED:0") }, "\(session.screen())")
    }

    @Test func aStepOnAHostNotConnectedSaysSoStaysAndIsUndoneOnceConnected() throws {
        defer { ssh.stop() }
        LoopbackSSH.write(local + "/keep.txt", Array("keep".utf8))
        let first = try browserWithRemote(waitingFor: "keep.txt")
        first.type("y")
        showRemote(first)
        first.type("p")
        #expect(eventually { contents(remote + "/keep.txt") == Array("keep".utf8) }, "copied:\n\(first.screen())")
        ended(first, "copied:")
        first.type("q")
        #expect(first.waitFor(30) { $0.contains("EXITED:0") }, "\(first.screen())")
        // A new run: the journal names the remote by its address; not connected, it says so and keeps the step.
        let second = try ssh.browser(on: local)
        #expect(second.waitFor(60) { $0.contains("keep.txt") }, "\(second.screen())")
        second.type("z")
        let prefix = "ssh://127.0.0.1:\(ssh.port)"
        #expect(second.waitFor(60) { $0.contains("\(prefix) is not connected: connect it to undo this") }, "\(second.screen())")
        usleep(300_000)
        #expect(contents(remote + "/keep.txt") == Array("keep".utf8), "nothing done")
        #expect(second.connect(to: ssh.url(remote)), "\(second.screen())")
        #expect(second.waitFor(60) { $0.contains("[2 remote-files]") && $0.contains("keep.txt") }, "\(second.screen())")
        second.type("z")
        #expect(second.waitFor(60) { $0.contains("undone: the copy of keep.txt") }, "\(second.screen())")
        #expect(eventually { contents(remote + "/keep.txt") == nil && trash("remote") == ["keep.txt"] }, "\(second.screen())")
        #expect(contents(local + "/keep.txt") == Array("keep".utf8))
        second.type("q")
        #expect(second.waitFor(30) { $0.contains("EXITED:0") }, "\(second.screen())")
    }

    @Test func aBulkRenameInARemoteTabIsDoneThereAndUndone() throws {
        defer { ssh.stop() }
        for name in ["a", "b", "c"] { LoopbackSSH.write(remote + "/\(name).txt", Array(name.uppercased().utf8)) }
        let script = ssh.folder.appendingPathComponent("swap.sh")
        try TestEnvironment.writeFile("#!/bin/sh\nsed -i '1{h;d};2{G}' \"$1\"\n", to: script.path)
        let session = try ssh.browser(on: ssh.url(remote), environment: ["EDITOR": script.path])
        #expect(session.waitFor(60) { $0.contains("c.txt") && $0.contains("ssh:127.0.0.1") }, "\(session.screen())")
        session.type("R")
        #expect(session.waitFor(30) { $0.contains("Rename 2?") && $0.contains("→  b.txt") }, "the plan:\n\(session.screen())")
        session.send("Enter")
        #expect(session.waitFor(60) { $0.contains("renamed 2 (z undoes)") }, "\(session.screen())")
        #expect(contents(remote + "/a.txt") == Array("B".utf8) && contents(remote + "/b.txt") == Array("A".utf8), "swapped on the remote")
        session.type("z")
        #expect(session.waitFor(60) { $0.contains("undone: the renaming of 2 names") }, "\(session.screen())")
        #expect(contents(remote + "/a.txt") == Array("A".utf8) && contents(remote + "/b.txt") == Array("B".utf8), "back")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: remote))?.sorted() ?? []
        #expect(left == ["a.txt", "b.txt", "c.txt"], "no temporary name left: \(left)")
        session.type("q")
        #expect(session.waitFor(30) { $0.contains("EXITED:0") }, "\(session.screen())")
    }

    @Test func aMoveBetweenTwoRemotesIsUndoneThroughBoth() throws {
        defer { ssh.stop() }
        let other = try #require(LoopbackSSH(), "the second sshd did not start")
        defer { other.stop() }
        try ssh.trust(other)
        let onB = other.folder.appendingPathComponent("b-files").path
        try FileManager.default.createDirectory(atPath: onB, withIntermediateDirectories: true)
        let bytes = (0..<1_500_007).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        LoopbackSSH.write(remote + "/travels.bin", bytes)
        LoopbackSSH.write(onB + "/stays.txt", Array("b".utf8))
        LoopbackSSH.write(local + "/here.txt", Array("here".utf8))
        let session = try browserWithRemote(waitingFor: "here.txt")
        showRemote(session)
        #expect(session.connect(to: other.url(onB)), "\(session.screen())")
        #expect(session.waitFor(60) { $0.contains("stays.txt") && $0.contains("[3 b-files]") }, "host B in tab 3:\n\(session.screen())")
        session.type("2")
        #expect(session.waitFor(30) { $0.contains("travels.bin") && $0.contains("[2 remote-files]") }, "host A in tab 2:\n\(session.screen())")
        session.type("x")
        session.type("3")
        #expect(session.waitFor(30) { $0.contains("stays.txt") && $0.contains("ssh:127.0.0.1") }, "tab 3:\n\(session.screen())")
        session.type("p")
        let moved = eventually { contents(onB + "/travels.bin") == bytes && contents(remote + "/travels.bin") == nil }
        #expect(moved, "moved from A to B:\n\(session.screen())")
        ended(session, "moved:")
        session.type("z")
        #expect(session.waitFor(60) { $0.contains("undone: the move of travels.bin") }, "\(session.screen())")
        let back = eventually { contents(remote + "/travels.bin") == bytes && contents(onB + "/travels.bin") == nil }
        #expect(back, "back on A byte for byte, gone from B:\n\(session.screen())")
        // One remote command for both hosts (the same machine): their trashes are the one folder.
        let inBTrash = contents(ssh.folder.path + "/remote-data/Trash/files/travels.bin") == bytes
        #expect(inBTrash && trash("remote") == ["travels.bin"], "B's copy in the remote trash, A's source out of it: \(trash("remote"))")
        session.type("q")
        #expect(session.waitFor(30) { $0.contains("EXITED:0") }, "\(session.screen())")
    }
}
