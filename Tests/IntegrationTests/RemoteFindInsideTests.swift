import FileSystemKit
import Foundation
import Places
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Tab in `F` on a remote over a real sshd on loopback (#26), `qlbrowse serve` on the "remote"
/// being the binary under test: ripgrep runs there and a word in two files is found, one named
/// in bytes that are not UTF-8 (through the router, the prefix taken off); a cancel kills the
/// remote's ripgrep; a remote without ripgrep says so, named.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") && FileManager.default.isExecutableFile(atPath: "/usr/bin/rg"),
                             "needs openssh-server and ripgrep (scripts/install-deps test)"))
struct RemoteFindInsideTests {
    let ssh: LoopbackSSH
    let files: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        files = try ssh.subfolder("files", creating: "one/two")
    }

    @Test func findsAWordInTwoFilesOneNamedNotUTF8OnTheRemote() async throws {
        defer { ssh.stop() }
        LoopbackSSH.write(files + "/one/two/" + RemoteFindTests.oddName, Array("a jar of marmalade\n".utf8))
        LoopbackSSH.write(files + "/notes.md", Array("Marmalade: oranges, sugar\n".utf8))
        LoopbackSSH.write(files + "/other.txt", Array("nothing here\n".utf8))
        let place = try await ssh.place(files)
        defer { place.disconnect() }
        let router = PlaceRouter(local: LocalPlace())
        let prefix = PlacePath.prefix(destination: place.address.destination, port: place.address.port)
        router.add(place, under: prefix, label: nil)
        let reports = RemoteFindTests.Reports()
        let search = router.findInside(PlacePath.join(prefix, files), query: "marmalade", limit: 200) { reports.add($0) }
        defer { search.cancel() }
        #expect(await LoopbackSSH.eventually(60) { reports.last?.complete == true || reports.failure != nil }, "\(String(describing: reports.failure))")
        let found = try #require(reports.last)
        #expect(Set(found.best.map(\.fileSystemBytes)) == [("one/two/" + RemoteFindTests.oddName).fileSystemBytes, Array("notes.md".utf8)],
                "both files, relative to the folder, the odd name by its own bytes (smart case: Marmalade too): \(found.best)")
        #expect(found.matched == 2 && found.query == "marmalade")
        // The limit holds over there: one path listed, both counted.
        let one = RemoteFindTests.Reports()
        let limited = place.findInside(files, query: "marmalade", limit: 1) { one.add($0) }
        defer { limited.cancel() }
        #expect(await LoopbackSSH.eventually(60) { one.last?.complete == true })
        #expect(one.last?.best.count == 1 && one.last?.matched == 2)
    }

    @Test func aCancelKillsTheRemotesRipgrepAndNothingIsReportedAfter() async throws {
        defer { ssh.stop() }
        LoopbackSSH.write(files + "/recipe.md", Array("marmalade\n".utf8))
        let (remoteCommand, slowFolder) = try SlowRipgrep.make(in: ssh, files: files, slowFiles: 60)
        let place = try await ssh.place(files, remoteCommand: remoteCommand)
        defer { place.disconnect() }
        let reports = RemoteFindTests.Reports()
        let search = place.findInside(files, query: "marmalade", limit: 200) { reports.add($0) }
        // The match streams back while ripgrep is still at the slow files (not all at its end).
        #expect(await LoopbackSSH.eventually(60) { reports.last?.best == ["recipe.md"] }, "the match, as ripgrep found it")
        #expect(!SlowRipgrep.running(below: slowFolder).isEmpty, "ripgrep still runs on the remote")
        #expect(reports.last?.complete != true, "still searching when cancelled")
        search.cancel()
        let started = Date()
        #expect(await LoopbackSSH.eventually(30) { SlowRipgrep.running(below: slowFolder).isEmpty },
                "the cancel killed the remote's ripgrep: \(SlowRipgrep.running(below: slowFolder))")
        let heard = reports.count
        try await Task.sleep(for: .milliseconds(300))
        #expect(reports.count == heard && reports.failure == nil, "nothing after the cancel")
        #expect(await place.probe(files) == nil, "the link works on")
        print("remote rg gone \(Int(Date().timeIntervalSince(started) * 1000)) ms after the cancel")
    }

    @Test func aRemoteWithoutRipgrepSaysSoByName() async throws {
        defer { ssh.stop() }
        LoopbackSSH.write(files + "/notes.md", Array("marmalade\n".utf8))
        let empty = ssh.folder.appendingPathComponent("empty-bin").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        // `env` found by the shell, then a PATH with no rg for `qlbrowse serve` (its path is absolute).
        let place = try await ssh.place(files, remoteCommand: SlowRipgrep.withPath(empty, ssh.remoteCommand))
        defer { place.disconnect() }
        let reports = RemoteFindTests.Reports()
        let search = place.findInside(files, query: "marmalade", limit: 200) { reports.add($0) }
        defer { search.cancel() }
        #expect(await LoopbackSSH.eventually(60) { reports.failure != nil })
        #expect(reports.failure?.message == "on 127.0.0.1: looking inside files needs ripgrep (Debian package ripgrep)", "\(String(describing: reports.failure))")
        #expect(reports.count == 0)
    }
}
