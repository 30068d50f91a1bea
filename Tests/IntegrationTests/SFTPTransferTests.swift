import FileSystemKit
import Foundation
import Places
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Copies and moves between this computer and an SFTP server (the fallback place, #26) over a
/// real sshd on loopback whose sftp subsystem is internal-sftp: both ways byte for byte (a 3 MB
/// file, a folder whose name is not UTF-8), a taken name never overwritten, a copy cut by a
/// silent link that leaves nothing under the final name and whose temporary the next copy into
/// that folder removes, and moves: to the server (the source to this computer's Trash) done,
/// from it (no trash there) refused before anything is copied.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct SFTPTransferTests {
    /// `alb\xFCm`: Latin-1, not UTF-8.
    static let oddFolder = String(fileSystemBytes: Array("alb".utf8) + [0xFC] + Array("m".utf8))
    static let oddFile = String(fileSystemBytes: Array("caf".utf8) + [0xE9] + Array(".txt".utf8))

    let ssh: LoopbackSSH
    let remote: String
    let local: String
    let localData: String
    let journals: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = ssh.folder.appendingPathComponent("remote").path
        local = ssh.folder.appendingPathComponent("local").path
        localData = ssh.folder.appendingPathComponent("local-data").path
        journals = ssh.folder.appendingPathComponent("journals").path
        for folder in [remote, local, localData, journals] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    /// Names in `folder` as the kernel has them (Foundation drops names that are not UTF-8).
    private func names(_ folder: String) -> [String] { DirectoryEntries.list(folder).map(\.name).sorted() }

    /// The file's bytes, read through the kernel.
    private func bytes(_ path: String) -> [UInt8]? {
        FileDescriptorReader.readFile(path, upTo: 1 << 30)
    }

    private func mkdir(_ path: String) { _ = path.withFileSystemRepresentation { Glibc.mkdir($0, 0o755) } }

    private func journal(_ kind: FileOperation.Kind = .copy, to place: String, _ destination: String, _ sources: [String]) -> TransferJournal {
        TransferJournal(folder: journals, kind: kind, from: "here", to: place, destination: destination, sources: sources)
    }

    @Test func copiesUpAndBackDownArriveByteForByte() async throws {
        defer { ssh.stop() }
        let pattern = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        LoopbackSSH.write(local + "/big.bin", pattern)
        mkdir(local + "/" + Self.oddFolder)
        mkdir(local + "/" + Self.oddFolder + "/inner")
        LoopbackSSH.write(local + "/" + Self.oddFolder + "/inner/" + Self.oddFile, Array("bonjour".utf8))
        LoopbackSSH.write(local + "/" + Self.oddFolder + "/empty.txt", [])
        let place = try await ssh.sftpPlace(remote)
        defer { place.disconnect() }
        let sources = [local + "/big.bin", local + "/" + Self.oddFolder]
        let up = await PlaceTransfer(from: LocalPlace(), to: place).copy(FileOperation(kind: .copy, sources: sources, destination: remote),
                                                                         events: FileOperationEvents(), journal: journal(to: place.name, remote, sources))
        #expect(up.done == sources && up.failures.isEmpty, "\(up.summary) \(up.failures)")
        #expect(bytes(remote + "/big.bin") == pattern)
        #expect(bytes(remote + "/" + Self.oddFolder + "/inner/" + Self.oddFile) == Array("bonjour".utf8))
        #expect(bytes(remote + "/" + Self.oddFolder + "/empty.txt") == [])
        #expect(names(remote) == [Self.oddFolder, "big.bin"].sorted(), "no temporary left: \(names(remote))")
        // Back down, into another folder of this computer.
        let back = local + "/back"
        mkdir(back)
        let downSources = [remote + "/big.bin", remote + "/" + Self.oddFolder]
        let down = await PlaceTransfer(from: place, to: LocalPlace()).copy(FileOperation(kind: .copy, sources: downSources, destination: back),
                                                                           events: FileOperationEvents(), journal: journal(to: "here", back, downSources))
        #expect(down.done == downSources && down.failures.isEmpty, "\(down.summary) \(down.failures)")
        #expect(bytes(back + "/big.bin") == pattern)
        #expect(bytes(back + "/" + Self.oddFolder + "/inner/" + Self.oddFile) == Array("bonjour".utf8))
        #expect(names(back + "/" + Self.oddFolder) == ["empty.txt", "inner"])
        #expect(names(journals).isEmpty, "complete copies leave no journal: \(names(journals))")
    }

    @Test func aTakenNameIsNeverOverwritten() async throws {
        defer { ssh.stop() }
        LoopbackSSH.write(local + "/note.txt", Array("new".utf8))
        LoopbackSSH.write(remote + "/note.txt", Array("old".utf8))
        let place = try await ssh.sftpPlace(remote)
        defer { place.disconnect() }
        let transfer = PlaceTransfer(from: LocalPlace(), to: place)
        let operation = { FileOperation(kind: .copy, sources: [local + "/note.txt"], destination: remote) }
        // Overwrite asked for: refused before a byte is sent (no trash there: the old one would be lost).
        let overwrite = await transfer.copy(operation(), events: FileOperationEvents(resolve: { _ in (.overwrite, false) }))
        #expect(overwrite.done.isEmpty && overwrite.failures.first?.contains("not overwritten") == true, "\(overwrite.failures)")
        #expect(bytes(remote + "/note.txt") == Array("old".utf8))
        #expect(names(remote) == ["note.txt"], "\(names(remote))")
        let skip = await transfer.copy(operation(), events: FileOperationEvents(resolve: { _ in (.skip, false) }))
        #expect(skip.skipped == [local + "/note.txt"])
        let both = await transfer.copy(operation(), events: FileOperationEvents(resolve: { _ in (.keepBoth, false) }))
        #expect(both.done == [local + "/note.txt"], "\(both.failures)")
        #expect(bytes(remote + "/note.txt") == Array("old".utf8) && bytes(remote + "/note (2).txt") == Array("new".utf8), "\(names(remote))")
        // The place's own calls never go over a name either: a first piece, a rename.
        await #expect(throws: FileSystemError.self) { try await place.writeChunk(Array("x".utf8), to: remote + "/note.txt", at: 0, last: true) }
        await #expect(throws: FileSystemError.self) { _ = try await place.rename(remote + "/note (2).txt", to: remote + "/note.txt") }
        #expect(bytes(remote + "/note.txt") == Array("old".utf8) && bytes(remote + "/note (2).txt") == Array("new".utf8))
    }

    /// The link goes silent 4 MB into a 24 MB copy up: the pieces' deadline ends it, the
    /// temporary cannot be removed (the link is silent) and is named in the report and journal;
    /// nothing is under the final name. Healed, the next copy into that folder removes it.
    @Test func aCutCopyLeavesNothingUnderItsNameAndTheNextCopyRemovesItsTemporary() async throws {
        defer { ssh.stop() }
        let pattern = (0..<(24 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 12) }
        LoopbackSSH.write(local + "/first.bin", pattern)
        let relay = try ssh.relay()
        defer { relay.stop() }
        let place = try await ssh.sftpPlace(remote, callDeadline: 3, through: relay)
        defer { place.disconnect() }
        let sources = [local + "/first.bin"]
        let cut = journal(to: place.name, remote, sources)
        let transfer = PlaceTransfer(from: LocalPlace(), to: place)
        let report = await transfer.copy(FileOperation(kind: .copy, sources: sources, destination: remote),
                                         events: FileOperationEvents(progress: { state in
            if state.bytesDone >= 4 << 20 { relay.blackHole() }
        }), journal: cut)
        #expect(relay.silentAt != nil, "the link went silent mid-copy")
        #expect(report.notDone == sources, "\(report.summary) \(report.failures)")
        let leftover = try #require(report.leftovers.first, "\(report.summary)")
        #expect(leftover.hasPrefix(remote + "/.first.bin.qlbrowse-") && leftover.hasSuffix(".part"))
        #expect(!names(remote).contains("first.bin"), "nothing under the final name: \(names(remote))")
        relay.heal()
        // The temporary is there on the server (written until the link went silent).
        let temporaryName = String(leftover.dropFirst(remote.count + 1))
        #expect(names(remote).contains(temporaryName), "\(names(remote))")
        let again = await transfer.copy(FileOperation(kind: .copy, sources: sources, destination: remote), events: FileOperationEvents(),
                                        journal: journal(to: place.name, remote, sources))
        #expect(again.done == sources && again.failures.isEmpty, "\(again.summary) \(again.failures)")
        #expect(again.removedLeftovers == [leftover], "\(again.summary)")
        #expect(names(remote) == ["first.bin"], "the leftover is gone: \(names(remote))")
        #expect(bytes(remote + "/first.bin") == pattern)
        // The cut copy's journal stays, and now says its temporary is gone.
        let record = try JSONDecoder().decode(TransferJournal.Record.self, from: Data(contentsOf: URL(fileURLWithPath: cut.path)))
        #expect(record.items.first?.state == .notCopied && record.items.first?.temporary == nil, "\(record)")
        #expect(record.items.first?.reason?.contains("removed by a later copy") == true, "\(record)")
    }

    /// A move up: each source goes to this computer's Trash once its copy is in place. A move
    /// down: refused whole before anything is copied (the server has no trash: its originals
    /// could only be deleted for good), the sources untouched.
    @Test func aMoveToTheServerIsDoneAndAMoveFromItIsRefused() async throws {
        defer { ssh.stop() }
        let pattern = (0..<(1 << 20) + 5).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        mkdir(local + "/" + Self.oddFolder)
        LoopbackSSH.write(local + "/" + Self.oddFolder + "/big.bin", pattern)
        let place = try await ssh.sftpPlace(remote)
        defer { place.disconnect() }
        let sources = [local + "/" + Self.oddFolder]
        let up = await PlaceTransfer(from: LocalPlace(dataHome: localData), to: place)
            .move(FileOperation(kind: .move, sources: sources, destination: remote), events: FileOperationEvents(),
                  journal: journal(.move, to: place.name, remote, sources))
        #expect(up.done == sources && up.failures.isEmpty, "\(up.summary) \(up.failures)")
        #expect(bytes(remote + "/" + Self.oddFolder + "/big.bin") == pattern)
        #expect(!names(local).contains(Self.oddFolder), "\(names(local))")
        #expect(bytes(localData + "/Trash/files/" + Self.oddFolder + "/big.bin") == pattern, "the source is in this computer's Trash")
        // Down: refused, nothing copied, nothing removed.
        let back = local + "/back"
        mkdir(back)
        let down = await PlaceTransfer(from: place, to: LocalPlace(dataHome: localData))
            .move(FileOperation(kind: .move, sources: [remote + "/" + Self.oddFolder], destination: back), events: FileOperationEvents(),
                  journal: journal(.move, to: "here", back, [remote + "/" + Self.oddFolder]))
        #expect(down.done.isEmpty && down.notDone == [remote + "/" + Self.oddFolder], "\(down.summary)")
        #expect(down.failures.first?.contains("has no trash") == true, "\(down.failures)")
        #expect(names(back).isEmpty, "nothing copied: \(names(back))")
        #expect(bytes(remote + "/" + Self.oddFolder + "/big.bin") == pattern, "the original is where it was")
    }

    /// `qlbrowse files copy`/`move` with a remote whose shell has no qlbrowse: over plain SFTP
    /// (said on standard error), a folder up and back byte for byte; a move up done (the source
    /// in this computer's Trash), a move down refused with exit 1 and the original kept.
    @Test func theFilesCommandCopiesAndMovesOverSFTPWhenTheRemoteHasNoQlbrowse() throws {
        defer { ssh.stop() }
        // Operands cross Foundation's `Process` as UTF-8: the name that is not UTF-8 is inside.
        mkdir(local + "/album")
        mkdir(local + "/album/" + Self.oddFolder)
        LoopbackSSH.write(local + "/album/" + Self.oddFolder + "/" + Self.oddFile, Array("bonjour".utf8))
        LoopbackSSH.write(local + "/note.txt", Array("note".utf8))
        let config = try ssh.configHome(remoteCommand: ssh.folder.path + "/no-such-qlbrowse")
        let environment = ["XDG_CONFIG_HOME": config, "XDG_STATE_HOME": journals, "XDG_DATA_HOME": localData]
        let up = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "copy", local + "/album", ssh.url(remote)], environment: environment)
        #expect(up.status == 0 && up.stderr.contains("plain SFTP"), "\(up.stdout) \(up.stderr)")
        #expect(bytes(remote + "/album/" + Self.oddFolder + "/" + Self.oddFile) == Array("bonjour".utf8), "\(names(remote))")
        let back = local + "/back"
        mkdir(back)
        let down = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "copy", ssh.url(remote + "/album"), back], environment: environment)
        #expect(down.status == 0 && bytes(back + "/album/" + Self.oddFolder + "/" + Self.oddFile) == Array("bonjour".utf8), "\(down.stderr)")
        let moveUp = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "move", local + "/note.txt", ssh.url(remote)], environment: environment)
        #expect(moveUp.status == 0 && bytes(remote + "/note.txt") == Array("note".utf8), "\(moveUp.stderr)")
        #expect(bytes(local + "/note.txt") == nil && bytes(localData + "/Trash/files/note.txt") == Array("note".utf8), "moved: the source in the Trash")
        let moveDown = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "move", ssh.url(remote + "/note.txt"), back], environment: environment)
        #expect(moveDown.status == 1 && moveDown.stderr.contains("has no trash"), "\(moveDown.stdout) \(moveDown.stderr)")
        #expect(bytes(remote + "/note.txt") == Array("note".utf8) && bytes(back + "/note.txt") == nil, "refused: nothing copied, nothing removed")
        // With the yes: copied, checked, then deleted for good there.
        let yes = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "move", "--delete-sources", ssh.url(remote + "/note.txt"), back], environment: environment)
        #expect(yes.status == 0 && bytes(back + "/note.txt") == Array("note".utf8) && bytes(remote + "/note.txt") == nil, "\(yes.stdout) \(yes.stderr)")
    }

    /// 32 MB up to the server and back down, timed: prints MB/s each way (pieces of 1 MB, four
    /// on their way, each as 64 KiB WRITEs or READs in flight).
    @Test func aCopyThroughSFTPIsMeasured() async throws {
        defer { ssh.stop() }
        let pattern = (0..<(32 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 16) }
        LoopbackSSH.write(local + "/big.bin", pattern)
        let place = try await ssh.sftpPlace(remote)
        defer { place.disconnect() }
        let started = Date()
        let up = await PlaceTransfer(from: LocalPlace(), to: place)
            .copy(FileOperation(kind: .copy, sources: [local + "/big.bin"], destination: remote), events: FileOperationEvents())
        let upSeconds = Date().timeIntervalSince(started)
        let back = local + "/back"
        mkdir(back)
        let middle = Date()
        let down = await PlaceTransfer(from: place, to: LocalPlace())
            .copy(FileOperation(kind: .copy, sources: [remote + "/big.bin"], destination: back), events: FileOperationEvents())
        let downSeconds = Date().timeIntervalSince(middle)
        print(String(format: "SFTP copy of 32 MB over loopback: up %.1f MB/s (%.2f s), down %.1f MB/s (%.2f s)",
                     32 / upSeconds, upSeconds, 32 / downSeconds, downSeconds))
        #expect(up.done.count == 1 && down.done.count == 1, "\(up.failures) \(down.failures)")
        #expect(bytes(remote + "/big.bin") == pattern && bytes(back + "/big.bin") == pattern)
    }
}
