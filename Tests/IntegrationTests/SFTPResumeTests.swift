import FileSystemKit
import Foundation
import Places
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A copy to or from an SFTP server cut by a silent link (#26, `LinkRelay`) goes on from where
/// it stopped the next time: the journal kept the prefix of the temporary known whole, and the
/// next copy of the same source into the same folder sends only the rest — fewer bytes through
/// the ssh pipe (`SFTPPlace.traffic`) than a fresh copy, the result byte for byte the source.
/// A source that is not as it was (even with its size and time put back) starts over.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct SFTPResumeTests {
    static let pattern = (0..<(24 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 12) }

    let ssh: LoopbackSSH
    let remote: String
    let local: String
    let journals: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = ssh.folder.appendingPathComponent("remote").path
        local = ssh.folder.appendingPathComponent("local").path
        journals = ssh.folder.appendingPathComponent("journals").path
        for folder in [remote, remote + "/fresh", local, local + "/fresh", journals] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    private func names(_ folder: String) -> [String] { DirectoryEntries.list(folder).map(\.name).sorted() }
    private func bytes(_ path: String) -> [UInt8]? { FileDescriptorReader.readFile(path, upTo: 1 << 30) }

    /// The journal as its file says now (nil: not there, or not readable).
    private func record(_ journal: TransferJournal) -> TransferJournal.Record? {
        (try? Data(contentsOf: URL(fileURLWithPath: journal.path))).flatMap { try? JSONDecoder().decode(TransferJournal.Record.self, from: $0) }
    }

    /// Copies `sources` into `folder` through `transfer`, the link black-holed 8 MB in: the copy
    /// stops at its deadline (a hang guard of 120 s) with the file's temporary kept.
    private func cutCopy(_ transfer: PlaceTransfer, _ sources: [String], into folder: String, relay: LinkRelay,
                         journal: TransferJournal) async throws -> String {
        let started = Date()
        let report = await transfer.copy(FileOperation(kind: .copy, sources: sources, destination: folder),
                                         events: FileOperationEvents(progress: { state in if state.bytesDone >= 8 << 20 { relay.blackHole() } }),
                                         journal: journal)
        #expect(relay.silentAt != nil && Date().timeIntervalSince(started) < 120, "the link went silent mid-copy")
        #expect(report.notDone == sources, "\(report.summary) \(report.failures)")
        return try #require(report.leftovers.first, "the temporary is kept: \(report.summary)")
    }

    /// Once the healed link has let through what waited in it (the cut copy's answers still on
    /// their way), so that only the next copy's bytes are counted: the traffic still for a
    /// second, polled (a hang guard of 30 s).
    private func settled(_ place: SFTPPlace) async throws {
        var last = place.traffic, still = 0
        for _ in 0..<300 where still < 10 {
            try await Task.sleep(for: .milliseconds(100))
            let now = place.traffic
            still = now == last ? still + 1 : 0
            last = now
        }
    }

    @Test func aCopyUpCutByTheLinkGoesOnFromItsPrefixAndSendsLess() async throws {
        defer { ssh.stop() }
        LoopbackSSH.write(local + "/first.bin", Self.pattern)
        let relay = try ssh.relay()
        defer { relay.stop() }
        let place = try await ssh.sftpPlace(remote, callDeadline: 3, through: relay)
        defer { place.disconnect() }
        let sources = [local + "/first.bin"]
        let transfer = PlaceTransfer(from: LocalPlace(), to: place)
        let cut = TransferJournal(folder: journals, from: LocalPlace().name, to: place.name, destination: remote, sources: sources)
        let leftover = try await cutCopy(transfer, sources, into: remote, relay: relay, journal: cut)
        let resume = try #require(record(cut)?.items.first?.resume, "the journal keeps the prefix: \(String(describing: record(cut)))")
        #expect(resume.written >= 1 << 20 && resume.written < Self.pattern.count && resume.written % (1 << 20) == 0, "\(resume)")
        relay.heal()
        try await settled(place)
        let before = place.traffic
        let again = await transfer.copy(FileOperation(kind: .copy, sources: sources, destination: remote), events: FileOperationEvents(),
                                        journal: TransferJournal(folder: journals, from: LocalPlace().name, to: place.name, destination: remote, sources: sources))
        let resumed = place.traffic.sent - before.sent
        #expect(again.done == sources && again.failures.isEmpty && again.removedLeftovers.isEmpty, "\(again.summary) \(again.failures)")
        #expect(bytes(remote + "/first.bin") == Self.pattern, "byte for byte")
        #expect(names(remote) == ["first.bin", "fresh"], "the temporary went on into place: \(names(remote)) (was \(leftover))")
        #expect(record(cut)?.items.first?.temporary == nil && record(cut)?.items.first?.reason?.contains("went on with") == true, "\(String(describing: record(cut)))")
        // A fresh copy of the same file, for comparison.
        let start = place.traffic
        let fresh = await transfer.copy(FileOperation(kind: .copy, sources: sources, destination: remote + "/fresh"), events: FileOperationEvents())
        let whole = place.traffic.sent - start.sent
        #expect(fresh.done == sources && bytes(remote + "/fresh/first.bin") == Self.pattern)
        print("SFTP copy up of 24 MB resumed at byte \(resume.written): \(resumed) bytes sent, a fresh copy \(whole)")
        #expect(resumed < whole - resume.written + (1 << 20), "only the rest crossed: \(resumed) of \(whole)")
    }

    @Test func aCopyDownCutByTheLinkGoesOnFromItsPrefixAndReceivesLess() async throws {
        defer { ssh.stop() }
        LoopbackSSH.write(remote + "/first.bin", Self.pattern)
        let relay = try ssh.relay()
        defer { relay.stop() }
        let place = try await ssh.sftpPlace(remote, callDeadline: 3, through: relay)
        defer { place.disconnect() }
        let sources = [remote + "/first.bin"]
        let transfer = PlaceTransfer(from: place, to: LocalPlace())
        let cut = TransferJournal(folder: journals, from: place.name, to: LocalPlace().name, destination: local, sources: sources)
        let leftover = try await cutCopy(transfer, sources, into: local, relay: relay, journal: cut)
        #expect(names(local).contains(String(leftover.dropFirst(local.count + 1))), "kept here to go on with: \(names(local))")
        let resume = try #require(record(cut)?.items.first?.resume, "\(String(describing: record(cut)))")
        relay.heal()
        try await settled(place)
        let before = place.traffic
        let again = await transfer.copy(FileOperation(kind: .copy, sources: sources, destination: local), events: FileOperationEvents(),
                                        journal: TransferJournal(folder: journals, from: place.name, to: LocalPlace().name, destination: local, sources: sources))
        let resumed = place.traffic.received - before.received
        #expect(again.done == sources && again.failures.isEmpty, "\(again.summary) \(again.failures)")
        #expect(bytes(local + "/first.bin") == Self.pattern, "byte for byte")
        #expect(names(local) == ["first.bin", "fresh"], "\(names(local))")
        let start = place.traffic
        let fresh = await transfer.copy(FileOperation(kind: .copy, sources: sources, destination: local + "/fresh"), events: FileOperationEvents())
        let whole = place.traffic.received - start.received
        #expect(fresh.done == sources && bytes(local + "/fresh/first.bin") == Self.pattern)
        print("SFTP copy down of 24 MB resumed at byte \(resume.written): \(resumed) bytes received, a fresh copy \(whole)")
        #expect(resume.written >= 1 << 20 && resumed < whole - resume.written + (1 << 20), "only the rest crossed: \(resumed) of \(whole)")
    }

    /// The source's bytes at the end of the prefix changed, its size and time put back: the
    /// hashes of the two sides differ, so the leftover is removed and the copy starts over.
    @Test func aSourceChangedUnderThePrefixStartsOver() async throws {
        defer { ssh.stop() }
        LoopbackSSH.write(local + "/first.bin", Self.pattern)
        let relay = try ssh.relay()
        defer { relay.stop() }
        let place = try await ssh.sftpPlace(remote, callDeadline: 3, through: relay)
        defer { place.disconnect() }
        let sources = [local + "/first.bin"]
        let transfer = PlaceTransfer(from: LocalPlace(), to: place)
        let cut = TransferJournal(folder: journals, from: LocalPlace().name, to: place.name, destination: remote, sources: sources)
        let leftover = try await cutCopy(transfer, sources, into: remote, relay: relay, journal: cut)
        let resume = try #require(record(cut)?.items.first?.resume, "\(String(describing: record(cut)))")
        relay.heal()
        // One byte inside the prefix's last block, then the time as it was.
        var changed = Self.pattern
        changed[resume.written - 1] ^= 0xFF
        var before = stat()
        #expect(stat(local + "/first.bin", &before) == 0)
        let fd = open(local + "/first.bin", O_WRONLY | O_CLOEXEC)
        #expect(pwrite(fd, [changed[resume.written - 1]], 1, off_t(resume.written - 1)) == 1)
        var times = [before.st_atim, before.st_mtim]
        #expect(futimens(fd, &times) == 0)
        close(fd)
        let again = await transfer.copy(FileOperation(kind: .copy, sources: sources, destination: remote), events: FileOperationEvents(),
                                        journal: TransferJournal(folder: journals, from: LocalPlace().name, to: place.name, destination: remote, sources: sources))
        #expect(again.done == sources && again.removedLeftovers == [leftover], "\(again.summary) \(again.failures)")
        #expect(bytes(remote + "/first.bin") == changed, "the new bytes, copied whole")
        #expect(names(remote) == ["first.bin", "fresh"], "\(names(remote))")
        #expect(record(cut)?.items.first?.reason?.contains("removed by a later copy") == true, "\(String(describing: record(cut)))")
    }
}
