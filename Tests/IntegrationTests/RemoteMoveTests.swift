import FileSystemKit
import Foundation
import Places
import Synchronization
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Moves between machines over a real sshd on loopback (#26): `qlbrowse files move` up to a
/// remote, back, and between two remotes, each item copied as a copy is and its source then put
/// in its own place's trash (this computer's, the remote's), so nothing is lost and the move can
/// be undone; and a move cut mid-way keeps every source whose copy did not complete.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct RemoteMoveTests {
    static let oddName = String(fileSystemBytes: Array("caf".utf8) + [0xE9] + Array(".txt".utf8))

    let ssh: LoopbackSSH
    let remote: String
    let local: String
    /// This computer's XDG_DATA_HOME (its Trash) for the moves.
    let localData: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = ssh.folder.appendingPathComponent("remote").path
        local = ssh.folder.appendingPathComponent("local").path
        localData = ssh.folder.appendingPathComponent("local-data").path
        for folder in [remote, local + "/album/inner", localData] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    private func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// The file's bytes, read through the kernel (Foundation does not take a name that is not UTF-8).
    private func bytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var all: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard count > 0 else { return count == 0 ? all : nil }
            all += buffer[..<count]
        }
    }

    @Test func theFilesCommandMovesToAndFromAndBetweenRemotes() throws {
        defer { ssh.stop() }
        let pattern = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        LoopbackSSH.write(local + "/album/big.bin", pattern)
        LoopbackSSH.write(local + "/album/inner/" + Self.oddName, Array("bonjour".utf8))
        let config = try ssh.configHome()
        let environment = ["XDG_CONFIG_HOME": config, "XDG_DATA_HOME": localData, "XDG_STATE_HOME": ssh.folder.path + "/state"]
        // Up: the folder arrives whole, and its source is in this computer's Trash.
        let up = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "move", local + "/album", ssh.url(remote)], environment: environment)
        #expect(up.status == 0, "\(up.stderr)")
        #expect(bytes(remote + "/album/big.bin") == pattern && bytes(remote + "/album/inner/" + Self.oddName) == Array("bonjour".utf8))
        #expect(!FileManager.default.fileExists(atPath: local + "/album"), "the source is gone from its folder")
        #expect(bytes(localData + "/Trash/files/album/big.bin") == pattern, "the source is in the local Trash: \(names(localData + "/Trash/files"))")
        #expect(names(remote) == ["album"], "no temporary left")
        // Between two remotes (the same sshd through a relay: another address, another connection).
        let relay = try ssh.relay()
        defer { relay.stop() }
        try FileManager.default.createDirectory(atPath: remote + "/other", withIntermediateDirectories: true)
        let across = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "move", ssh.url(remote + "/album/big.bin"),
                                                                    ssh.url(remote + "/other", port: relay.port)], environment: environment)
        #expect(across.status == 0 && bytes(remote + "/other/big.bin") == pattern, "\(across.stderr)")
        #expect(!FileManager.default.fileExists(atPath: remote + "/album/big.bin"))
        let remoteTrash = ssh.folder.path + "/remote-data/Trash/files"
        #expect(bytes(remoteTrash + "/big.bin") == pattern, "the source is in the remote's trash: \(names(remoteTrash))")
        // Back down: the folder arrives, and its source goes to the remote's trash.
        try FileManager.default.createDirectory(atPath: local + "/back", withIntermediateDirectories: true)
        let down = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "move", ssh.url(remote + "/album"), local + "/back"], environment: environment)
        #expect(down.status == 0 && bytes(local + "/back/album/inner/" + Self.oddName) == Array("bonjour".utf8), "\(down.stderr)")
        #expect(!FileManager.default.fileExists(atPath: remote + "/album"))
        #expect(names(remoteTrash).contains("album"), "\(names(remoteTrash))")
        // The remote's root is refused as rm refuses `/` (a file as the destination: were it not
        // refused, the destination check would stop it before anything is read).
        LoopbackSSH.write(local + "/file.txt", [1])
        let root = TestEnvironment.run(TestEnvironment.qlbrowse, ["files", "move", ssh.url("/"), local + "/file.txt"], environment: environment)
        #expect(root.status != 0 && root.stderr.contains("refusing to remove '/'"), "\(root.stderr)")
        // Every move finished: no journal stays.
        #expect(names(ssh.folder.path + "/state/qlbrowse/transfers").isEmpty)
    }

    /// sshd killed during the second item's copy: the first was moved (its source in the Trash),
    /// the second and third keep their sources whole, and the journal says which and why.
    @Test func aMoveCutMidwayKeepsEverySourceWhoseCopyDidNotComplete() async throws {
        let big = (0..<(24 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        LoopbackSSH.write(local + "/a.txt", Array("first".utf8))
        LoopbackSSH.write(local + "/big.bin", big)
        LoopbackSSH.write(local + "/c.txt", Array("third".utf8))
        let sources = [local + "/a.txt", local + "/big.bin", local + "/c.txt"]
        let place = try await ssh.place(remote)
        defer { place.disconnect() }
        let transfer = PlaceTransfer(from: LocalPlace(dataHome: localData), to: place, piece: 256 << 10)
        let journal = TransferJournal(folder: ssh.folder.path + "/journal", kind: .move, from: "here", to: place.name, destination: remote, sources: sources)
        let cut = Mutex(false), ssh = self.ssh
        let report = await transfer.move(FileOperation(kind: .move, sources: sources, destination: remote),
                                         events: FileOperationEvents(progress: { state in
            guard state.bytesDone >= 4 << 20, !cut.withLock({ $0 }) else { return }
            cut.withLock { $0 = true }
            ssh.stop()
        }), journal: journal)
        #expect(cut.withLock { $0 }, "the link was cut mid-move")
        #expect(report.done == [local + "/a.txt"] && report.notDone == [local + "/big.bin", local + "/c.txt"], "\(report.summary) \(report.failures)")
        #expect(report.trashed.map(\.originalPath) == [local + "/a.txt"], "\(report.trashed)")
        #expect(bytes(remote + "/a.txt") == Array("first".utf8) && !FileManager.default.fileExists(atPath: local + "/a.txt"))
        #expect(bytes(localData + "/Trash/files/a.txt") == Array("first".utf8), "the moved source is in the Trash")
        // Nothing lost: the sources not copied are where they were, whole.
        #expect(bytes(local + "/big.bin") == big && bytes(local + "/c.txt") == Array("third".utf8))
        #expect(!FileManager.default.fileExists(atPath: remote + "/big.bin") && !FileManager.default.fileExists(atPath: remote + "/c.txt"))
        let record = try JSONDecoder().decode(TransferJournal.Record.self, from: Data(contentsOf: URL(fileURLWithPath: journal.path)))
        #expect(record.kind == "move" && record.items.map(\.state) == [.moved, .notCopied, .notCopied], "\(record)")
        #expect(record.items[0].trashed == report.trashed.first?.trashedPath && record.items[2].reason?.contains("127.0.0.1") == true, "\(record)")
    }
}
