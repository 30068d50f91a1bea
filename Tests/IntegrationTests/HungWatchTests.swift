import Dispatch
import FileSystemKit
import Foundation
@testable import Places
import Synchronization
import SystemKit
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// A watch asked for on a hung share (#26's review): `LocalPlace.watch` adds the inotify watch on
/// the volume's own threads with a call's deadline, so every caller (the browser's
/// `FolderWatching`, `qlbrowse serve`'s watch requests) hears "not responding" instead of waiting
/// for ever, and the volume is then refused like after any other stuck call; `qlbrowse serve`
/// answers the watch with that failure and its other requests meanwhile. faultfs
/// (Tests/Support) hangs every call under its `stuck` folder: `inotify_add_watch` looks that
/// folder up, and the look-up does not return while the hang lasts.
@Suite(.serialized, .enabled(if: getuid() == 0 && FileManager.default.fileExists(atPath: "/dev/fuse")
                                && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/fusepy.py"),
                              "needs root, /dev/fuse and python3-fusepy (scripts/install-deps test)"))
struct HungWatchTests {
    /// What the watch did, set by the task that asked for it.
    final class Outcome: Sendable {
        let state = Mutex<Result<Void, FileSystemError>?>(nil)
        var value: Result<Void, FileSystemError>? { state.withLock { $0 } }
    }

    private static func faultfs(_ arguments: [String]) -> TestEnvironment.Result {
        TestEnvironment.run("/usr/bin/python3", [TestEnvironment.root.appendingPathComponent("Tests/Support/faultfs_ctl.py").path] + arguments)
    }

    /// A faultfs mount whose folder `stuck` hangs every look-up, beside a local folder `local`;
    /// `body` gets the work folder and the mount point. The hang is cleared and the mount taken
    /// down after it, which lets a stuck look-up return.
    private static func withHungFolder(_ body: (_ work: String, _ mount: String) async throws -> Void) async throws {
        let work = TestEnvironment.temporaryFolder("qlbrowse-hung-watch")
        let source = work.appendingPathComponent("src").path, mount = work.appendingPathComponent("mnt").path
        try FileManager.default.createDirectory(atPath: source + "/stuck", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: work.path + "/local", withIntermediateDirectories: true)
        // Its own name (fuse.hungwatch): VolumeTests' browser looks for fuse.faultfs mounts coming and going.
        let mounted = Self.faultfs(["mount", source, mount, "--name", "hungwatch"])
        try #require(mounted.status == 0, "faultfs did not mount: \(mounted.stderr)")
        defer {
            // Clears the hang first, which lets the stuck look-up return, then unmounts.
            _ = Self.faultfs(["unmount", mount])
            try? FileManager.default.removeItem(at: work)
        }
        let hung = Self.faultfs(["set", mount, "hang_paths=[\"/stuck\"]", "hang=true"])
        try #require(hung.status == 0, "\(hung.stderr)")
        try await body(work.path, mount)
    }

    @Test func aWatchOnAHungShareEndsAtTheDeadlineAndTheVolumeIsRefusedAfter() async throws {
        try await Self.withHungFolder { work, mount in try await watchEndsAtTheDeadline(work: work, mount: mount) }
    }

    private func watchEndsAtTheDeadline(work: String, mount: String) async throws {
        let place = LocalPlace(io: VolumeIO(), callDeadline: 1)
        let outcome = Outcome()
        // Asked from a thread of the caller's and waited for with a bound, so that a watch that
        // blocks its caller fails this test instead of hanging it (`watch(_:started:)`: what the
        // async `watch` awaits, without a cooperative thread that the whole suite on two cores may
        // be holding).
        let asked = ContinuousClock.now
        DispatchQueue.global().async {
            place.watch(mount + "/stuck") { started in outcome.state.withLock { $0 = started.map { _ in () } } }
        }
        // A hang guard, not a timing: the deadline is 1 s, the whole suite on two cores is slow.
        while outcome.value == nil, ContinuousClock.now - asked < .seconds(30) {
            try await Task.sleep(for: .milliseconds(50))
        }
        let waited = ContinuousClock.now - asked
        guard case .failure(let error) = outcome.value else {
            Issue.record("the watch on the hung folder \(outcome.value == nil ? "still blocks its caller" : "was added") after \(waited)")
            return
        }
        #expect(error.code == .notResponding && error.message.hasPrefix("\(mount) is not responding"), "\(error)")

        // The volume has a call stuck: the next one is refused at once, a watch as any other.
        do throws(FileSystemError) {
            _ = try await place.watch(mount)
            Issue.record("a watch on a volume with a stuck call was added")
        } catch {
            #expect(error.code == .notResponding && error.message.contains("not responding"), "\(error)")
        }
        // Other volumes are not held up: a local folder is watched and heard as before.
        let local = work + "/local"
        let changes = try await place.watch(local)
        close(open(local + "/new", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644))
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == .changed(name: Array("new".utf8)))
    }

    /// `qlbrowse serve`'s side in this process, over two pipes: the watch of the hung folder is
    /// answered with the deadline's failure, and a request sent after it is answered before that
    /// (the serve loop was held by the watch before: nothing else was answered at all).
    @Test func serveAnswersAHungWatchWithItsFailureAndOtherRequestsMeanwhile() async throws {
        try await Self.withHungFolder { work, mount in
            let requests = try SystemPipe.make(), answers = try SystemPipe.make()
            let server = RemoteServer(place: LocalPlace(io: VolumeIO(), dataHome: work + "/data", callDeadline: 1),
                                      input: requests.readEnd, output: answers.writeEnd, software: "test")
            DispatchQueue.global().async {
                _ = server.run()
                close(requests.readEnd)
                close(answers.writeEnd)
            }
            defer {
                close(requests.writeEnd)
                close(answers.readEnd)
            }
            func send(_ request: RemoteRequest, id: UInt64) throws {
                try FrameCodec.write(RemoteCodec.frame(request, id: id, payload: []), to: requests.writeEnd)
            }
            try send(.hello(version: RemoteCodec.version, software: "test"), id: 0)
            _ = try await Self.answer(from: answers.readEnd)
            try send(.watch(path: mount + "/stuck"), id: 1)
            try send(.item(path: work + "/local"), id: 2)
            var heard: [UInt64: RemoteAnswer] = [:]
            while heard.count < 2, let (id, answer) = try await Self.answer(from: answers.readEnd) { heard[id] = answer }
            guard case .item = heard[2] else {
                Issue.record("the request after the hung watch was not answered: \(heard)")
                return
            }
            guard case .failure(let failure) = heard[1] else {
                Issue.record("the hung watch was not answered with a failure: \(heard)")
                return
            }
            #expect(failure.fileSystemError.code == .notResponding, "\(failure)")
        }
    }

    /// The next answer, or nil when none comes within 30 s (a hang guard: the answers expected
    /// come within about a second), read off the cooperative threads.
    private static func answer(from fd: Int32) async throws -> (UInt64, RemoteAnswer)? {
        let frame = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<WorkerFrame?, any Error>) in
            DispatchQueue.global().async {
                var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&waiting, 1, 30_000) > 0 else { return continuation.resume(returning: nil) }
                continuation.resume(with: Result { try FrameCodec.read(from: fd) })
            }
        }
        guard let frame else { return nil }
        return (frame.id, try RemoteCodec.answer(in: frame))
    }
}
