import FileSystemKit
import Foundation
import Places
import Synchronization
import SystemKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A remote folder that updates itself (#26): `RemotePlace.watch` over a real sshd on loopback,
/// the remote's own inotify watch behind it. A file made there is heard here; a thousand made
/// at once cross in a handful of messages; ending the stream stops the remote's inotify watch;
/// the folder removed ends the stream with `.gone`; a dropped link says "list again" and the
/// watch comes back on the next connection.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct RemoteWatchTests {
    let ssh: LoopbackSSH
    let files: URL

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        files = ssh.folder.appendingPathComponent("watched")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    }

    /// What a watch yielded so far, read by a task of its own.
    final class Heard: Sendable {
        let changes = Mutex<[PlaceChange]>([])
        let ended = Atomic<Bool>(false)
        var all: [PlaceChange] { changes.withLock { $0 } }
        var hasEnded: Bool { ended.load(ordering: .relaxed) }
        var names: Set<[UInt8]> { Set(all.compactMap { if case .changed(let name) = $0 { name } else { nil } }) }

        /// Waits (up to `seconds`: a hang guard, not a timing; 15 s were too few in CI with the
        /// whole suite on two cores) until `done` holds.
        func wait(seconds: Double = 90, until done: (Heard) -> Bool) async -> Bool {
            let end = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < end {
                if done(self) { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return done(self)
        }
    }

    /// Reads `stream` into a `Heard` until the stream ends or the task is cancelled.
    static func listen(_ stream: AsyncStream<PlaceChange>) -> (Heard, Task<Void, Never>) {
        let heard = Heard()
        let task = Task {
            for await change in stream { heard.changes.withLock { $0.append(change) } }
            heard.ended.store(true, ordering: .relaxed)
        }
        return (heard, task)
    }

    func remoteInotify() -> Int { ssh.serveInotifyWatches() }

    func waitForRemoteInotify(_ count: Int) async -> Bool { await ssh.waitForServeInotify(count) }

    @Test func aFileMadeOnTheRemoteIsHeardAndEndingTheStreamStopsTheRemotesWatch() async throws {
        defer { ssh.stop() }
        let place = try await ssh.place(files.path)
        defer { place.disconnect() }
        _ = try await place.item(at: files.path)
        let before = remoteInotify()
        let (heard, task) = Self.listen(try place.watch(files.path))
        #expect(await waitForRemoteInotify(before + 1), "the remote watches with inotify")
        let name = Array("new ".utf8) + [0xE9] + Array(".txt".utf8)
        LoopbackSSH.write(String(fileSystemBytes: Array(files.path.utf8) + [0x2F] + name), Array("hello".utf8))
        #expect(await heard.wait { $0.names.contains(name) }, "heard: \(heard.all)")
        // The consumer stops: the cancel reaches the remote, whose inotify descriptor closes.
        task.cancel()
        #expect(await waitForRemoteInotify(before), "the remote still holds \(remoteInotify()) inotify descriptors, \(before) before")
        // The connection still serves.
        _ = try await place.item(at: files.path + "/" + String(fileSystemBytes: name))
    }

    @Test func aThousandFilesMadeAtOnceCrossInAHandfulOfMessages() async throws {
        defer { ssh.stop() }
        let place = try await ssh.place(files.path)
        defer { place.disconnect() }
        let before = remoteInotify()
        let (heard, task) = Self.listen(try place.watch(files.path))
        defer { task.cancel() }
        #expect(await waitForRemoteInotify(before + 1))
        let (sentBefore, messagesBefore) = (place.traffic.received, place.watchMessages)
        for index in 0..<1000 { LoopbackSSH.write(files.path + "/photo \(index).jpg", []) }
        let all = await heard.wait(seconds: 120) { heard in (0..<1000).allSatisfy { heard.names.contains(Array("photo \($0).jpg".utf8)) } }
        #expect(all, "heard \(heard.names.count) names")
        try? await Task.sleep(for: .milliseconds(400))
        let messages = place.watchMessages - messagesBefore
        let bytes = place.traffic.received - sentBefore
        // One message per ~150 ms of changes: a thousand files made in well under a second are
        // a few messages; one per file would be 1,000 (and 2,000 with the close of each write).
        #expect(messages >= 1 && messages <= 15, "\(messages) messages, \(bytes) bytes")
        print("a thousand files made at once: \(messages) watch messages, \(bytes) bytes received")
    }

    @Test func theFolderRemovedEndsTheWatchWithGone() async throws {
        defer { ssh.stop() }
        let place = try await ssh.place(files.path)
        defer { place.disconnect() }
        let before = remoteInotify()
        let (heard, task) = Self.listen(try place.watch(files.path))
        defer { task.cancel() }
        #expect(await waitForRemoteInotify(before + 1))
        try FileManager.default.removeItem(at: files)
        #expect(await heard.wait { $0.hasEnded }, "heard: \(heard.all)")
        #expect(heard.all.last == .gone)
        #expect(await waitForRemoteInotify(before))
    }

    @Test func aDroppedLinkSaysListAgainAndTheWatchComesBackOnTheNextConnection() async throws {
        defer { ssh.stop() }
        let place = try await ssh.place(files.path)
        defer { place.disconnect() }
        let (heard, task) = Self.listen(try place.watch(files.path))
        defer { task.cancel() }
        #expect(await waitForRemoteInotify(1))
        LoopbackSSH.cut(place)
        #expect(await heard.wait { $0.all.contains(.changed(name: [])) }, "heard: \(heard.all)")
        // The next call (the browser's listing) connects again; the watch follows it.
        _ = try await place.item(at: files.path)
        #expect(await heard.wait { $0.all.filter { $0 == .changed(name: []) }.count >= 2 }, "heard: \(heard.all)")
        // "List again" is yielded before the watch request goes: a file made before the remote's
        // inotify is in place is the browser's listing's to show, not the watch's.
        #expect(await waitForRemoteInotify(1), "the remote watches again")
        LoopbackSSH.write(files.path + "/after", [])
        #expect(await heard.wait { $0.names.contains(Array("after".utf8)) }, "heard: \(heard.all)")
        #expect(!heard.hasEnded)
    }
}
