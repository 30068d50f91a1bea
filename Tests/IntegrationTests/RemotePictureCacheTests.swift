import FileSystemKit
import Foundation
import Places
import SystemKit
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// The browser's own copy of a remote place's thumbnails (`RemotePictureCache`) over a real sshd
/// on loopback: a second visit asks the remote nothing for the files that did not change and
/// shows the same pictures; a changed file is asked again; a photo's picture crossed as JPEG.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct RemotePictureCacheTests {
    let ssh: LoopbackSSH
    let files: URL
    let cache: RemotePictureCache

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        files = ssh.folder.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        cache = RemotePictureCache(folder: ssh.folder.path + "/local-cache/qlbrowse/remote-thumbnails")
    }

    /// A new connection (a visit), off the cooperative threads (the handshake blocks).
    private func visit() async throws -> RemotePlace {
        let address = RemoteAddress.parse(ssh.url(files.path))!
        let command = RemoteCommand(sshCommand: ssh.sshCommand, remoteCommand: ssh.remoteCommand)
        let cache = self.cache
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try RemotePlace(connectingTo: address, command: command, callDeadline: 30, pictureCache: cache) })
            }
        }
    }

    /// The folder's items as listed, by name.
    private func items(_ place: RemotePlace) async throws -> [String: PlaceItem] {
        let listed = try await place.entries(of: files.path)
        var items: [String: PlaceItem] = [:]
        for handle in listed.handles {
            let entry = listed.entry(handle)
            items[entry.name] = PlaceItem(path: files.path + "/" + entry.name, isDirectory: false, size: entry.size, modified: entry.modified)
        }
        return items
    }

    /// The pictures of `items` as the browser asks for them, and the bytes sent to the remote meanwhile.
    private func pictures(_ place: RemotePlace, _ items: [PlaceItem]) async -> (pictures: [String: Representation], sent: Int) {
        let before = place.traffic.sent
        let made = Pictures()
        var options = ThumbnailOptions(size: 128, types: [.icon, .lowQuality, .thumbnail], concurrency: 2)
        options.checksVersion = false
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            place.fetchThumbnails(for: items, options: options, perItem: { item, result in
                if case .success(let picture) = result { made.add(item.path, picture) }
            }, completion: { _ in continuation.resume() })
        }
        return (made.all, place.traffic.sent - before)
    }

    @Test func aSecondVisitAsksTheRemoteNothingForUnchangedFilesAndAChangedFileAgain() async throws {
        defer { ssh.stop() }
        let photo = TestEnvironment.fixtures.appendingPathComponent("landscape.jpg")
        for name in ["a.jpg", "b.jpg"] { try FileManager.default.copyItem(at: photo, to: files.appendingPathComponent(name)) }

        let first = try await visit()
        let listed = try await items(first)
        let (made, sentFirst) = await pictures(first, [listed["a.jpg"]!, listed["b.jpg"]!])
        first.disconnect()
        #expect(made.count == 2 && sentFirst > 0)
        let a = try #require(made[files.path + "/a.jpg"])
        #expect(a.type == .thumbnail && max(a.image.width, a.image.height) == 128)
        #expect(a.encodedPNG == nil, "a photo's picture crossed as JPEG")

        let second = try await visit()
        defer { second.disconnect() }
        let again = try await items(second)
        let (kept, sentSecond) = await pictures(second, [again["a.jpg"]!, again["b.jpg"]!])
        #expect(sentSecond == 0, "the second visit asked the remote for \(sentSecond) bytes")
        #expect(kept[files.path + "/a.jpg"]?.image == a.image, "the same picture as the first visit's")
        #expect(kept[files.path + "/b.jpg"]?.type == .thumbnail)

        // b.jpg changes (another photo, another size and time): asked again, a.jpg still not.
        let other = TestEnvironment.fixtures.appendingPathComponent("portrait-exif6.jpg")
        try FileManager.default.removeItem(at: files.appendingPathComponent("b.jpg"))
        try FileManager.default.copyItem(at: other, to: files.appendingPathComponent("b.jpg"))
        let changed = try await items(second)
        #expect(changed["b.jpg"]!.version != again["b.jpg"]!.version)
        let (_, sentUnchanged) = await pictures(second, [changed["a.jpg"]!])
        #expect(sentUnchanged == 0)
        let (fresh, sentChanged) = await pictures(second, [changed["b.jpg"]!])
        #expect(sentChanged > 0, "the changed file was asked again")
        let b = try #require(fresh[files.path + "/b.jpg"])
        #expect(b.image.height > b.image.width, "the new photo's picture (a portrait), not the old one's")
    }
}

/// Pictures by path, shared with callbacks.
private final class Pictures: @unchecked Sendable {
    private let lock = NSLock()
    private var pictures: [String: Representation] = [:]
    func add(_ path: String, _ picture: Representation) { lock.lock(); pictures[path] = picture; lock.unlock() }
    var all: [String: Representation] { lock.lock(); defer { lock.unlock() }; return pictures }
}
