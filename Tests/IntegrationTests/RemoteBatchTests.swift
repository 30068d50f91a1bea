import FileSystemKit
import Foundation
import Places
import SystemKit
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// `T` on a remote folder over a real sshd on loopback (#26): the batch walks, looks up and
/// decodes on the remote, into the remote's cache; only its events cross, as they come.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct RemoteBatchTests {
    let ssh: LoopbackSSH
    let files: String

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        files = try ssh.subfolder("files", creating: "album")
        let corpus = "/work/shared/corpus/images"
        let photos = ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).filter { $0.lowercased().hasSuffix(".jpg") }.sorted().prefix(16)
        for (index, name) in photos.enumerated() {
            try FileManager.default.copyItem(atPath: corpus + "/" + name, toPath: files + (index % 2 == 0 ? "/" : "/album/") + name)
        }
        if photos.isEmpty {
            for index in 0..<4 {
                try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent("landscape.jpg"), to: URL(fileURLWithPath: files + "/p\(index).jpg"))
            }
        }
    }

    private func cached() -> [String] {
        ((try? FileManager.default.subpathsOfDirectory(atPath: ssh.remoteCache.path)) ?? []).filter { $0.hasSuffix(".png") && !$0.contains("fail") }
    }

    @Test func aBatchRunsOnTheRemoteAndOnlyItsEventsCross() async throws {
        defer { ssh.stop() }
        let place = try await ssh.place(files)
        defer { place.disconnect() }
        let count = FileManager.default.enumerator(atPath: files)!.allObjects.compactMap { $0 as? String }.filter { $0.hasSuffix(".jpg") }.count
        let before = place.traffic.received
        var total: Int?, generated = 0, sources: Set<String> = []
        for await event in place.thumbnailFolders([files, files + "/none"], options: BatchOptions(jobs: 2)) {
            switch event {
            case .found(let found): total = found
            case .unlisted(let folders): #expect(folders.map(\.folder) == [files + "/none"])
            case .file(_, .generated(let picture)):
                generated += 1
                sources.insert(picture.source)
            case .file(let path, let outcome): Issue.record("\(path): \(outcome)")
            }
        }
        let crossed = place.traffic.received - before
        #expect(total == count && generated == count, "\(String(describing: total)) \(generated) of \(count)")
        #expect(sources.allSatisfy { $0.hasSuffix("on 127.0.0.1") }, "\(sources)")
        #expect(cached().count >= count, "made into the remote's cache")
        #expect(crossed < 1000 * count, "\(crossed) bytes crossed for \(count) thumbnails: events, not pictures")
        // Again: everything is already in the remote's cache.
        var again = 0
        for await event in place.thumbnailFolders([files], options: BatchOptions(jobs: 2)) {
            if case .file(_, .alreadyCached) = event { again += 1 }
        }
        #expect(again == count)
    }

    @Test func endingTheIterationStopsTheBatchThere() async throws {
        defer { ssh.stop() }
        // Far more work than the stop takes to arrive, even with the whole suite on two cores: CI
        // saw all 40, then all 112, then all 336 made before it did, while the suite's blocking
        // tests kept this test's task off the cooperative threads. Hard links make 400 folders of
        // the photos cheaply (each is its own file to the batch and the cache): minutes of
        // decoding, which a batch that went on would do.
        for copy in 1...400 {
            let folder = files + "/copy\(copy)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: files) where name.hasSuffix(".jpg") {
                #expect(link(files + "/" + name, folder + "/" + name) == 0, "link: \(String(cString: strerror(errno)))")
            }
        }
        let total = try FileManager.default.subpathsOfDirectory(atPath: files).filter { $0.hasSuffix(".jpg") }.count
        let place = try await ssh.place(files)
        defer { place.disconnect() }
        var seen = 0
        for await event in place.thumbnailFolders([files], options: BatchOptions(jobs: 1)) {
            if case .file = event { seen += 1; break }
        }
        #expect(seen == 1)
        // The remote stopped: a moment later its cache holds far fewer than the folder.
        try await Task.sleep(for: .seconds(2))
        let made = cached().count
        try await Task.sleep(for: .seconds(1))
        // How many were made before the stop arrived depends on the machine's load (more than half
        // were seen in CI with the whole suite on two cores); what matters is that the rest never are.
        #expect(cached().count == made && made < total, "nothing more is made after the batch was stopped (\(made) of \(total) made)")
        #expect(try await place.item(at: files).isDirectory, "the link serves on")
    }
}
