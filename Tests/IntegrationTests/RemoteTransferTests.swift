import FileSystemKit
import Foundation
import Places
import Synchronization
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Copies between a local folder and a remote one over a real sshd on loopback (#26): a folder
/// with a Latin-1 name and a file of several pieces both ways, a taken name asked, and the link
/// cut mid-copy (the ssh process killed): nothing half-copied under its final name, and the
/// report says what was not copied.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct RemoteTransferTests {
    static let oddName = String(fileSystemBytes: Array("caf".utf8) + [0xE9] + Array(".txt".utf8))

    let ssh: LoopbackSSH
    /// The "remote" folder and a local one.
    let remote: String
    let local: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = try ssh.subfolder("remote")
        local = try ssh.subfolder("local", creating: "album/inner")
    }

    private func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    private func size(_ path: String) -> Int? {
        var info = stat()
        return lstat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    @Test func aFolderGoesToTheRemoteAndAFileComesBack() async throws {
        defer { ssh.stop() }
        let pattern = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        LoopbackSSH.write(local + "/album/big.bin", pattern)
        LoopbackSSH.write(local + "/album/inner/" + Self.oddName, Array("bonjour".utf8))
        LoopbackSSH.write(local + "/album/empty", [])
        let place = try await ssh.place(remote)
        defer { place.disconnect() }
        let up = PlaceTransfer(from: LocalPlace(), to: place, piece: 1 << 20)
        let progressed = Mutex<[Int64]>([])
        let journal = TransferJournal(folder: ssh.folder.path + "/journal", from: "here", to: place.name, destination: remote, sources: [local + "/album"])
        let report = await up.copy(FileOperation(kind: .copy, sources: [local + "/album"], destination: remote),
                                   events: FileOperationEvents(progress: { state in progressed.withLock { $0.append(state.bytesDone) } }), journal: journal)
        #expect(size(journal.path) == nil, "a copy that finished removes its journal")
        #expect(report.done == [local + "/album"] && report.failures.isEmpty, "\(report.summary) \(report.failures)")
        #expect(report.placed.first?.target == remote + "/album")
        #expect(try await place.read(remote + "/album/big.bin", offset: 0, length: 8 << 20) == pattern)
        #expect(try await place.read(remote + "/album/inner/" + Self.oddName, offset: 0, length: 100) == Array("bonjour".utf8))
        #expect(size(remote + "/album/empty") == 0)
        #expect(names(remote) == ["album"], "no temporary left")
        #expect(progressed.withLock { $0 }.count >= 4 && progressed.withLock { $0 }.last == Int64(pattern.count + 7))
        // Back from the remote, into a folder where the name is taken: asked, kept both.
        LoopbackSSH.write(local + "/big.bin", [1])
        let asked = Mutex(0)
        let down = PlaceTransfer(from: place, to: LocalPlace())
        let back = await down.copy(FileOperation(kind: .copy, sources: [remote + "/album/big.bin"], destination: local),
                                   events: FileOperationEvents(resolve: { _ in asked.withLock { $0 += 1 }; return (.keepBoth, false) }))
        #expect(back.done.count == 1 && asked.withLock { $0 } == 1, "\(back.summary)")
        #expect(size(local + "/big (2).bin") == pattern.count && size(local + "/big.bin") == 1)
        // Overwrite: the old one goes to the trash first, nothing lost.
        let over = await down.copy(FileOperation(kind: .copy, sources: [remote + "/album/big.bin"], destination: local),
                                   events: FileOperationEvents(resolve: { _ in (.overwrite, false) }))
        #expect(over.done.count == 1 && size(local + "/big.bin") == pattern.count, "\(over.summary)")
    }

    /// The ssh process killed mid-copy while sshd lives (a dropped connection): the place
    /// connects again and the copy goes on where it stopped, whole and in place.
    @Test func aDroppedLinkIsConnectedAgainAndTheCopyGoesOn() async throws {
        defer { ssh.stop() }
        let pattern = (0..<(24 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 16) }
        LoopbackSSH.write(local + "/first.bin", pattern)
        let place = try await ssh.place(remote)
        defer { place.disconnect() }
        let transfer = PlaceTransfer(from: LocalPlace(), to: place, piece: 256 << 10)
        let cut = Mutex(false)
        let report = await transfer.copy(FileOperation(kind: .copy, sources: [local + "/first.bin"], destination: remote),
                                         events: FileOperationEvents(progress: { state in
            guard state.bytesDone >= 4 << 20, !cut.withLock({ $0 }) else { return }
            cut.withLock { $0 = true }
            // From another thread, a moment later: likely while a piece is on its way.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { LoopbackSSH.cut(place) }
        }))
        #expect(cut.withLock { $0 }, "the link was cut mid-copy")
        #expect(report.done == [local + "/first.bin"] && report.failures.isEmpty, "\(report.summary) \(report.failures)")
        #expect(try await place.read(remote + "/first.bin", offset: 0, length: 32 << 20) == pattern)
        #expect(names(remote) == ["first.bin"], "no temporary left")
    }

    /// sshd killed mid-copy (the remote gone for good): nothing under a final name, the
    /// temporary named, and what was not copied said, with why.
    @Test func aRemoteGoneMidCopyLeavesNoHalfFileAndSaysWhatWasNotCopied() async throws {
        LoopbackSSH.write(local + "/first.bin", [UInt8](repeating: 3, count: 24 << 20))
        LoopbackSSH.write(local + "/second.txt", Array("second".utf8))
        let place = try await ssh.place(remote)
        defer { place.disconnect() }
        let transfer = PlaceTransfer(from: LocalPlace(), to: place, piece: 256 << 10)
        let cut = Mutex(false), ssh = self.ssh
        let journal = TransferJournal(folder: ssh.folder.path + "/journal", from: "here", to: place.name, destination: remote,
                                      sources: [local + "/first.bin", local + "/second.txt"])
        let report = await transfer.copy(FileOperation(kind: .copy, sources: [local + "/first.bin", local + "/second.txt"], destination: remote),
                                         events: FileOperationEvents(progress: { state in
            guard state.bytesDone >= 4 << 20, !cut.withLock({ $0 }) else { return }
            cut.withLock { $0 = true }
            ssh.stop()
        }), journal: journal)
        #expect(cut.withLock { $0 }, "the link was cut mid-copy")
        #expect(report.done.isEmpty && report.notDone == [local + "/first.bin", local + "/second.txt"], "\(report.summary)")
        #expect(report.failures.first?.contains("127.0.0.1") == true, "\(report.failures)")
        #expect(report.failures.last?.contains("second.txt: not copied") == true, "\(report.failures)")
        #expect(size(remote + "/first.bin") == nil && size(remote + "/second.txt") == nil, "nothing under a final name")
        // The remote could not be reached to remove its temporary: the report names it.
        let left = names(remote)
        #expect(left.count == 1 && left.first?.hasPrefix(".first.bin.qlbrowse-") == true, "\(left)")
        #expect(report.leftovers == left.map { remote + "/" + $0 }, "\(report.leftovers)")
        #expect(report.summary.contains("temporary file left"), "\(report.summary)")
        // The journal stays on this computer and says the same.
        let record = try JSONDecoder().decode(TransferJournal.Record.self, from: Data(contentsOf: URL(fileURLWithPath: journal.path)))
        #expect(record.items.map(\.state) == [.notCopied, .notCopied], "\(record)")
        #expect(record.items.first?.temporary == report.leftovers.first && record.items.last?.reason?.contains("127.0.0.1") == true, "\(record)")
    }

    /// `qlbrowse files copy` with a remote operand, the ssh and remote commands read from
    /// config.toml (`ssh_command`, `remote_command`): a file up to the remote, a folder back,
    /// and a copy within the remote done there (moves: `RemoteMoveTests`).
    @Test func theFilesCommandCopiesToAndFromARemote() throws {
        defer { ssh.stop() }
        LoopbackSSH.write(local + "/album/" + Self.oddName, Array("bonjour".utf8))
        let config = try ssh.configHome()
        let environment = ["XDG_CONFIG_HOME": config]
        let up = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "copy", local + "/album", ssh.url(remote)], environment: environment)
        #expect(up.status == 0, "\(up.stderr)")
        #expect(size(remote + "/album/" + Self.oddName) == 7, "\(names(remote))")
        try FileManager.default.createDirectory(atPath: local + "/back", withIntermediateDirectories: true)
        let down = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "copy", ssh.url(remote + "/album"), local + "/back"], environment: environment)
        #expect(down.status == 0 && size(local + "/back/album/" + Self.oddName) == 7, "\(down.stderr)")
        try FileManager.default.createDirectory(atPath: remote + "/other", withIntermediateDirectories: true)
        let within = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "copy", ssh.url(remote + "/album"), ssh.url(remote + "/other")],
                                         environment: environment)
        #expect(within.status == 0 && size(remote + "/other/album/" + Self.oddName) == 7, "\(within.stderr)")
    }

    /// 64 MB up to the remote and back down, timed (prints MB/s each way and the link's bytes).
    @Test func aCopyThroughTheLinkIsMeasured() async throws {
        defer { ssh.stop() }
        let megabyte = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 >> 3) }
        FileManager.default.createFile(atPath: local + "/big.bin", contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: local + "/big.bin"))
        for _ in 0..<64 { try handle.write(contentsOf: Data(megabyte)) }
        try handle.close()
        let place = try await ssh.place(remote)
        defer { place.disconnect() }
        let before = place.traffic
        var started = Date()
        let up = await PlaceTransfer(from: LocalPlace(), to: place).copy(FileOperation(kind: .copy, sources: [local + "/big.bin"], destination: remote),
                                                                        events: FileOperationEvents())
        let upSeconds = Date().timeIntervalSince(started)
        try FileManager.default.createDirectory(atPath: local + "/back", withIntermediateDirectories: true)
        started = Date()
        let down = await PlaceTransfer(from: place, to: LocalPlace()).copy(FileOperation(kind: .copy, sources: [remote + "/big.bin"], destination: local + "/back"),
                                                                          events: FileOperationEvents())
        let downSeconds = Date().timeIntervalSince(started)
        let after = place.traffic
        #expect(up.done.count == 1 && down.done.count == 1 && size(local + "/back/big.bin") == 64 << 20)
        print(String(format: "remote copy of 64 MB over loopback ssh: up %.1f MB/s (%.2f s), down %.1f MB/s (%.2f s); link bytes sent %d, received %d",
                     64 / upSeconds, upSeconds, 64 / downSeconds, downSeconds, after.sent - before.sent, after.received - before.received))
        #expect(upSeconds < 64 && downSeconds < 64, "at least 1 MB/s each way")
    }

    /// `qlbrowse files copy` killed mid-copy (as a crash or a closed laptop would): nothing under
    /// the final name on the remote, and the journal on this computer says which item was being
    /// copied, under which temporary, and that the other was never started.
    @Test func aCopyKilledMidwayLeavesAJournalThatSaysWhereItStopped() throws {
        defer { ssh.stop() }
        let megabyte = [UInt8](repeating: 9, count: 1 << 20)
        FileManager.default.createFile(atPath: local + "/big.bin", contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: local + "/big.bin"))
        for _ in 0..<256 { try handle.write(contentsOf: Data(megabyte)) }
        try handle.close()
        LoopbackSSH.write(local + "/small.txt", Array("small".utf8))
        let state = ssh.folder.appendingPathComponent("state").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestEnvironment.qlbrowse)
        process.arguments = ["files", "copy", local + "/big.bin", local + "/small.txt", ssh.url(remote)]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["QLBROWSE_SSH_COMMAND": ssh.sshCommand, "QLBROWSE_REMOTE_COMMAND": ssh.remoteCommand, "XDG_STATE_HOME": state,
             "XDG_CACHE_HOME": ssh.folder.path + "/local-cache", "QLBROWSE_NO_SERVICE": "1"]) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed once a temporary is being written on the remote.
        var temporary: String?
        for _ in 0..<200 where temporary == nil {
            temporary = names(remote).first { $0.hasPrefix(".big.bin.qlbrowse-") }
            if temporary == nil { usleep(50_000) }
        }
        try #require(temporary != nil, "the copy started")
        usleep(300_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(size(remote + "/big.bin") == nil && size(remote + "/small.txt") == nil, "nothing under a final name: \(names(remote))")
        // The kill may also land while the journal is being rewritten: its temporary
        // (`.NAME.XXXXXX.tmp`) is left beside it, and is not a journal (leftovers read `*.json`).
        let journals = names(state + "/qlbrowse/transfers").filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
        try #require(journals.count == 1, "\(names(state + "/qlbrowse/transfers"))")
        let record = try JSONDecoder().decode(TransferJournal.Record.self, from: Data(contentsOf: URL(fileURLWithPath: state + "/qlbrowse/transfers/" + journals[0])))
        #expect(record.items.map(\.state) == [.copying, .pending], "\(record)")
        #expect(record.items[0].temporary == remote + "/" + temporary!, "\(record)")
        #expect(record.items[0].target == remote + "/big.bin" && record.destination == remote)
    }
}
