import FileSystemKit
import Foundation
import Places
import Synchronization
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The link cut by 100 % loss (#26), through `LinkRelay` between ssh and the loopback sshd
/// (this kernel has no netem): the connection stays open and nothing arrives, which ssh itself
/// does not notice for a long time. A listing in flight fails `.notResponding` at the listing
/// deadline, a copy in flight stops with its report and journal and leaves nothing under the
/// final name, and once the link heals the same place answers and the copy can be run again.
/// Each bound is a hang guard timed from the moment the link went silent, not a tight timing.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct RemoteLinkLossTests {
    let ssh: LoopbackSSH
    let remote: String
    let local: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        remote = ssh.folder.appendingPathComponent("remote").path
        local = ssh.folder.appendingPathComponent("local").path
        for folder in [remote + "/album", local] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    }

    private func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func aListingInFlightWhenTheLinkGoesSilentFailsAtItsDeadlineAndTheHealedLinkAnswers() async throws {
        defer { ssh.stop() }
        for index in 0..<50 { LoopbackSSH.write(remote + "/album/photo-\(index).jpg", [UInt8](repeating: 1, count: 100)) }
        let relay = try ssh.relay()
        defer { relay.stop() }
        // The listing deadline is 4 s here (10 s by default).
        let place = try await ssh.place(remote, callDeadline: 4, through: relay)
        defer { place.disconnect() }
        // The listing's request reaches the remote; its answer does not come back.
        relay.blackHoleAfterNextRequest()
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<(FileSystemError?, Int), Never>) in
            let heard = Mutex(0)
            place.list(remote + "/album") { batch, complete, failure in
                let count = heard.withLock { $0 += batch.count; return $0 }
                if failure != nil || complete { continuation.resume(returning: (failure, count)) }
            }
        }
        let silentAt = try #require(relay.silentAt, "the link went silent with the request on its way")
        let failure = try #require(outcome.0, "the listing ended without a failure over a silent link (\(outcome.1) entries)")
        #expect(failure.code == .notResponding && failure.message.contains("127.0.0.1 is not responding"), "\(failure.message)")
        // The 4 s deadline, not minutes (room for a machine busy with the whole suite).
        print(String(format: "a listing in flight over a silent link failed %.1f s after the silence (listing deadline 4 s)", Date().timeIntervalSince(silentAt)))
        // Below ssh's own keep-alive (15 s × 3), so it is the listing's deadline that ended it; the
        // 4 s deadline took up to 24 s in CI with the whole suite on two cores.
        #expect(Date().timeIntervalSince(silentAt) < 42, "a silent link is given up on at the listing deadline")
        // A call on the silent link meets its deadline too, and does not wait behind the listing.
        do {
            _ = try await place.item(at: remote)
            Issue.record("a call was answered over a silent link")
        } catch {
            #expect(error.code == .notResponding, "\(error.message)")
        }
        // Healed: the same connection answers, and the folder is listed whole.
        relay.heal()
        #expect(try await place.item(at: remote + "/album").isDirectory)
        let whole = await withCheckedContinuation { (continuation: CheckedContinuation<(FileSystemError?, Int), Never>) in
            let heard = Mutex(0)
            place.list(remote + "/album") { batch, complete, failure in
                let count = heard.withLock { $0 += batch.count; return $0 }
                if failure != nil || complete { continuation.resume(returning: (failure, count)) }
            }
        }
        #expect(whole.0 == nil && whole.1 == 50, "\(whole)")
    }

    /// A copy up to the remote in 1 MB pieces, four on their way at once (what `files copy`
    /// sends): the link goes silent 4 MB in. ssh stops reading its input once its channel window
    /// is spent, so the requests' writes block; the copy still stops at the pieces' deadline.
    @Test func aCopyInFlightWhenTheLinkGoesSilentStopsWithItsReportAndJournal() async throws {
        defer { ssh.stop() }
        let pattern = (0..<(24 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 12) }
        LoopbackSSH.write(local + "/first.bin", pattern)
        LoopbackSSH.write(local + "/second.txt", Array("second".utf8))
        let relay = try ssh.relay()
        defer { relay.stop() }
        let place = try await ssh.place(remote, callDeadline: 3, through: relay)
        defer { place.disconnect() }
        let sources = [local + "/first.bin", local + "/second.txt"]
        let journal = TransferJournal(folder: ssh.folder.path + "/journal", from: "here", to: place.name, destination: remote, sources: sources)
        let transfer = PlaceTransfer(from: LocalPlace(), to: place)
        let report = await transfer.copy(FileOperation(kind: .copy, sources: sources, destination: remote),
                                         events: FileOperationEvents(progress: { state in
            if state.bytesDone >= 4 << 20 { relay.blackHole() }
        }), journal: journal)
        let silentAt = try #require(relay.silentAt, "the link went silent mid-copy")
        // The pieces' 30 s deadline and the temporary's removal tried (3 s), not minutes or never.
        print(String(format: "a copy over a silent link stopped %.1f s after the silence (pieces' deadline 30 s, the temporary's removal tried 3 s)",
                     Date().timeIntervalSince(silentAt)))
        #expect(Date().timeIntervalSince(silentAt) < 120, "the copy stops at its deadline")
        #expect(report.done.isEmpty && report.notDone == sources, "\(report.summary) \(report.failures)")
        #expect(report.failures.first?.contains("127.0.0.1 is not responding") == true, "\(report.failures)")
        #expect(report.failures.last?.contains("second.txt: not copied") == true, "\(report.failures)")
        #expect(!names(remote).contains("first.bin") && !names(remote).contains("second.txt"), "nothing under a final name: \(names(remote))")
        // The journal on this computer says where it stopped: which temporary, and why.
        let record = try JSONDecoder().decode(TransferJournal.Record.self, from: Data(contentsOf: URL(fileURLWithPath: journal.path)))
        #expect(record.items.map(\.state) == [.notCopied, .notCopied], "\(record)")
        #expect(record.items[0].temporary == report.leftovers.first && record.items[0].reason?.contains("not responding") == true, "\(record)")
        #expect(report.leftovers.count == 1 && report.leftovers.first?.hasPrefix(remote + "/.first.bin.qlbrowse-") == true, "\(report.leftovers)")
        // Healed: the copy run again (a taken name skipped, as `--on-clash skip`) puts both in place, whole.
        relay.heal()
        let again = await transfer.copy(FileOperation(kind: .copy, sources: sources, destination: remote),
                                        events: FileOperationEvents(resolve: { _ in (.skip, true) }))
        #expect(again.done == sources && again.failures.isEmpty, "\(again.summary) \(again.failures)")
        #expect(try await place.read(remote + "/first.bin", offset: 0, length: 32 << 20) == pattern)
        #expect(try await place.read(remote + "/second.txt", offset: 0, length: 100) == Array("second".utf8))
    }

    /// The user's own `ServerAliveInterval` (1 s, in their ssh command) is kept, not ours (15 s):
    /// ssh gives the silent link up after 3 s, the connection is gone, and once the link heals
    /// the next call connects again. Without one set, ours is on ssh's command line.
    @Test func sshsOwnKeepAliveEndsASilentConnectionAndTheNextCallConnectsAgain() async throws {
        defer { ssh.stop() }
        let relay = try ssh.relay()
        defer { relay.stop() }
        // (BatchMode=yes, in the test's usual command, makes ssh's own default interval 300 s.)
        let plain = try await ssh.place(remote, sshCommand: ssh.sshCommand.replacingOccurrences(of: " -o BatchMode=yes", with: ""), through: relay)
        #expect(sshArguments(plain).contains("ServerAliveInterval=15"), "ours when the user set none: \(sshArguments(plain))")
        plain.disconnect()
        let command = ssh.sshCommand + " -o ServerAliveInterval=1"
        let place = try await ssh.place(remote, sshCommand: command, callDeadline: 60, through: relay)
        defer { place.disconnect() }
        #expect(!sshArguments(place).contains("ServerAliveInterval=15"), "the user's setting stays in charge: \(sshArguments(place))")
        let first = place.linkProcessID
        relay.blackHole()
        let silentAt = Date()
        do {
            // A 60 s deadline: ssh's 3 s ends it first, as a lost connection.
            _ = try await place.item(at: remote)
            Issue.record("a call was answered over a silent link")
        } catch {
            #expect(error.code == .volumeGone && error.message.contains("the connection to 127.0.0.1 was lost"), "\(error.message)")
        }
        #expect(Date().timeIntervalSince(silentAt) < 50, "ssh's keep-alive, not the call's 60 s deadline")
        relay.heal()
        #expect(try await place.item(at: remote + "/album").isDirectory, "connected again")
        #expect(place.linkProcessID != first)
    }

    /// The browser on a remote folder whose link goes silent as a folder is entered: the hung
    /// volume's "waiting for 127.0.0.1… (Esc goes back)" (the host, not a volume of this
    /// computer), kept past the listing deadline (10 s), and the folder listed by itself once
    /// the link heals.
    @Test func theBrowserShowsWaitingForTheHostAndListsWhenTheLinkHeals() throws {
        defer { ssh.stop() }
        LoopbackSSH.write(remote + "/album/inside.txt", Array("inside".utf8))
        let relay = try ssh.relay()
        defer { relay.stop() }
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(ssh.url(remote, port: relay.port))'",
                                      environment: ["QLBROWSE_SSH_COMMAND": ssh.sshCommand, "QLBROWSE_REMOTE_COMMAND": ssh.remoteCommand])
        #expect(session.waitFor(20) { $0.contains("album") && $0.contains("ssh:127.0.0.1") }, "\(session.screen())")
        relay.blackHole()
        session.send("Enter")
        #expect(session.waitFor(10) { $0.contains("waiting for 127.0.0.1") }, "\(session.screen())")
        // Past the listing deadline the banner stays (the listing is asked again), no error instead.
        usleep(12_000_000)
        #expect(session.screen().contains("waiting for 127.0.0.1"), "\(session.screen())")
        relay.heal()
        #expect(session.waitFor(30) { $0.contains("inside.txt") && !$0.contains("waiting for") }, "\(session.screen())")
        session.send("q")
        #expect(session.waitFor(10) { $0.contains("EXITED:0") }, "\(session.screen())")
    }

    /// The ssh command line of `place`'s link (under the shell that runs the test's ssh command).
    private func sshArguments(_ place: RemotePlace) -> [String] {
        guard let root = place.linkProcessID else { return [] }
        return ([root] + LoopbackSSH.descendants(of: root)).flatMap { pid -> [String] in
            let cmdline = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
