import FileSystemKit
import Foundation
import Places
import Synchronization
import SystemKit
import Testing
import ThumbnailKit
#if canImport(Glibc)
import Glibc
#endif

/// A remote place over a real sshd on loopback, with `qlbrowse serve --stdio` on the "remote"
/// being the binary under test (issue #26): listing a name that is not UTF-8, ranged reads and
/// atomic writes, a thumbnail made and cached on the remote, a version mismatch named, and the
/// link dropping or the remote hanging mid-request without a hang here.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"), "needs openssh-server (scripts/install-deps test)"))
struct RemotePlaceTests {
    /// `caf\xE9.txt`: Latin-1, not UTF-8.
    static let oddName = String(fileSystemBytes: Array("caf".utf8) + [0xE9] + Array(".txt".utf8))

    let ssh: LoopbackSSH
    let files: URL

    init() throws {
        ssh = try #require(LoopbackSSH(), "sshd did not start")
        files = ssh.folder.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    }

    private func write(_ name: String, _ bytes: [UInt8]) {
        let fd = open(files.path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        _ = FileDescriptorWriter.writeAll(bytes, to: fd)
        close(fd)
    }

    /// Connects off the cooperative threads (the handshake blocks).
    private func connect(_ text: String, remoteCommand: String? = nil, version: Int = RemoteCodec.version,
                         callDeadline: Double = 5) async throws(FileSystemError) -> RemotePlace {
        let address = RemoteAddress.parse(text)!
        let command = RemoteCommand(sshCommand: ssh.sshCommand, remoteCommand: remoteCommand ?? ssh.remoteCommand)
        let result: Result<RemotePlace, FileSystemError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(FileSystemError) {
                    continuation.resume(returning: .success(try RemotePlace(connectingTo: address, command: command, protocolVersion: version,
                                                                            callDeadline: callDeadline, listingDeadline: callDeadline)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    @Test func listsARemoteFolderWithANameThatIsNotUTF8() async throws {
        defer { ssh.stop() }
        write(Self.oddName, Array("bonjour".utf8))
        try FileManager.default.createDirectory(at: files.appendingPathComponent("album"), withIntermediateDirectories: true)
        for index in 0..<500 { write("photo \(index).jpg", []) }
        let place = try await connect(ssh.url(files.path))
        defer { place.disconnect() }
        let root = try await place.resolve(place.address.path)
        #expect(root.isDirectory && root.path == files.path)
        let listed = try await place.entries(of: files.path)
        let names = listed.handles.map { listed.name($0) }
        #expect(listed.count == 502)
        #expect(names.contains(Self.oddName.fileSystemBytes), "the name's own bytes, not a repaired text")
        #expect(listed.handles.contains { listed.isDirectory($0) && listed.name($0) == Array("album".utf8) })
        // The item at that name, by the same bytes.
        let item = try await place.item(at: files.path + "/" + Self.oddName)
        #expect(item.size == 7 && item.isRegularFile)
        do {
            _ = try await place.item(at: files.path + "/nothing")
            Issue.record("a missing file was found")
        } catch {
            #expect(error.code == .notFound)
        }
    }

    @Test func readsRangesAndWritesWholeFilesAtomically() async throws {
        defer { ssh.stop() }
        write(Self.oddName, Array(0..<200).map { UInt8($0) })
        // scp's form, relative to the remote's home folder, with the port in the ssh command.
        let place = try await connectScp(relative: files.path)
        defer { place.disconnect() }
        let path = files.path + "/" + Self.oddName
        #expect(try await place.read(path, offset: 10, length: 5) == [10, 11, 12, 13, 14])
        #expect(try await place.read(path, offset: 195, length: 100) == [195, 196, 197, 198, 199])
        try await place.write(Array("new content".utf8), to: path)
        #expect(try await place.read(path, offset: 0, length: 100) == Array("new content".utf8))
        let stamp = try await place.rename(path, to: files.path + "/renamed.txt")
        #expect(stamp != nil)
        #expect(FileManager.default.fileExists(atPath: files.appendingPathComponent("renamed.txt").path))
        _ = try await place.make(files.path + "/made", folder: true)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: files.appendingPathComponent("made").path, isDirectory: &isFolder) && isFolder.boolValue)
    }

    /// `127.0.0.1:path` (scp's form) with the port given in the ssh command, as a user's
    /// `ssh_command` would; the path relative to the remote's home folder.
    private func connectScp(relative absolute: String) async throws -> RemotePlace {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let relative = absolute.hasPrefix(home + "/") ? String(absolute.dropFirst(home.count + 1)) : absolute
        let address = try #require(RemoteAddress.parse("127.0.0.1:" + relative))
        let command = RemoteCommand(sshCommand: ssh.sshCommand + " -p \(ssh.port)", remoteCommand: ssh.remoteCommand)
        let place = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try RemotePlace(connectingTo: address, command: command) }) }
        }
        #expect(try await place.resolve(address.path).path == absolute)
        return place
    }

    @Test func aThumbnailIsMadeAndCachedOnTheRemote() async throws {
        defer { ssh.stop() }
        let photo = TestEnvironment.fixtures.appendingPathComponent("landscape.jpg")
        try FileManager.default.copyItem(at: photo, to: files.appendingPathComponent("photo.jpg"))
        let place = try await connect(ssh.url(files.path))
        defer { place.disconnect() }
        let item = try await place.item(at: files.path + "/photo.jpg")
        let result = await withCheckedContinuation { continuation in
            place.fetchThumbnails(for: [item], options: ThumbnailOptions(size: 128, types: [.thumbnail]),
                                  perItem: { _, result in continuation.resume(returning: result) }, completion: { _ in })
        }
        let picture = try result.get()
        #expect(picture.type == .thumbnail && max(picture.image.width, picture.image.height) <= 128 && picture.image.width > 16)
        #expect(picture.contentType.identifier == "image/jpeg")
        // Made there: the remote's cache holds it.
        let cached = try FileManager.default.subpathsOfDirectory(atPath: ssh.remoteCache.path).filter { $0.hasSuffix(".png") }
        #expect(!cached.isEmpty, "the remote's cache has the thumbnail")
        // A file changed since it was listed fails there, rather than showing a stale picture.
        let stale = PlaceItem(path: item.path, isDirectory: false, size: item.size + 1, modified: item.modified)
        let changed = await withCheckedContinuation { continuation in
            place.fetchThumbnails(for: [stale], options: ThumbnailOptions(size: 128), perItem: { _, result in continuation.resume(returning: result) },
                                  completion: { _ in })
        }
        #expect(throws: ThumbnailError.self) { try changed.get() }
    }

    @Test func aVersionMismatchIsNamed() async throws {
        defer { ssh.stop() }
        do {
            _ = try await connect(ssh.url(files.path), version: RemoteCodec.version + 1)
            Issue.record("connected across versions")
        } catch {
            #expect(error.message.contains("the remote qlbrowse speaks version \(RemoteCodec.version), this one \(RemoteCodec.version + 1)"), "\(error.message)")
        }
        do {
            _ = try await connect(ssh.url(files.path), remoteCommand: ssh.folder.path + "/no-such-qlbrowse")
            Issue.record("connected to nothing")
        } catch {
            #expect(error.message.contains("qlbrowse was not found on 127.0.0.1"), "\(error.message)")
        }
    }

    @Test func sshdKilledMidListingEndsTheListingWithAMessage() async throws {
        // A listing deadline well above the bound below, so that "at once" is told from "at the deadline".
        let place = try await connect(ssh.url(files.path), callDeadline: 20)
        defer { place.disconnect() }
        // The remote stops answering (stopped mid-request), then the server dies under it.
        let servers = ssh.servers()
        try #require(!servers.isEmpty, "the remote qlbrowse runs under sshd")
        for pid in servers { kill(pid, SIGSTOP) }
        let sentBefore = place.traffic.sent
        let killed = Mutex<Date?>(nil)
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<FileSystemError?, Never>) in
            place.list(files.path) { _, complete, failure in
                if failure != nil || complete { continuation.resume(returning: failure) }
            }
            // Once the request is on its way (on a busy machine that takes a while; killed before,
            // the listing would connect again and say it cannot connect), the server dies.
            DispatchQueue.global().async {
                let giveUp = Date().addingTimeInterval(30)
                while place.traffic.sent == sentBefore && Date() < giveUp { usleep(10_000) }
                usleep(200_000)
                killed.withLock { $0 = Date() }
                ssh.stop()
            }
        }
        let failure = try #require(outcome)
        #expect(failure.code == .volumeGone, "\(failure.message)")
        #expect(failure.message.contains("the connection to 127.0.0.1 was lost"), "\(failure.message)")
        let sinceKill = killed.withLock { $0 }.map { Date().timeIntervalSince($0) } ?? 0
        #expect(sinceKill < 10, "the drop is noticed at once, not after the 20 s deadline")
        // The next call tries to connect again, and says it cannot.
        do {
            _ = try await place.item(at: files.path)
            Issue.record("a call succeeded with the server gone")
        } catch {
            #expect(error.message.contains("127.0.0.1"), "\(error.message)")
        }
    }

    @Test func aRemoteThatHangsMeetsTheDeadlineAndComesBack() async throws {
        defer { ssh.stop() }
        let place = try await connect(ssh.url(files.path), callDeadline: 1)
        defer { place.disconnect() }
        let servers = ssh.servers()
        try #require(!servers.isEmpty)
        for pid in servers { kill(pid, SIGSTOP) }
        let started = Date()
        do {
            _ = try await place.item(at: files.path)
            Issue.record("a stopped remote answered")
        } catch {
            #expect(error.code == .notResponding && error.message.contains("127.0.0.1 is not responding"), "\(error.message)")
        }
        // The 1 s deadline, not a hang (room for a machine busy with the whole suite).
        #expect(Date().timeIntervalSince(started) < 30)
        let listed = await withCheckedContinuation { (continuation: CheckedContinuation<FileSystemError?, Never>) in
            place.list(files.path) { _, complete, failure in
                if failure != nil || complete { continuation.resume(returning: failure) }
            }
        }
        #expect(listed?.code == .notResponding)
        for pid in servers { kill(pid, SIGCONT) }
        #expect(try await place.item(at: files.path).isDirectory, "the same connection answers again")
    }

    /// `qlbrowse ssh://host:port/path` in a terminal: the listing (a name that is not UTF-8 shown
    /// escaped), the filter, the status line saying it is remote, and the preview pane's picture
    /// made on the remote (its cache gets it), then a clean quit.
    @Test func theBrowserOpensOnARemoteFolder() throws {
        defer { ssh.stop() }
        write(Self.oddName, Array("bonjour".utf8))
        try FileManager.default.createDirectory(at: files.appendingPathComponent("album"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestEnvironment.fixtures.appendingPathComponent("landscape.jpg"), to: files.appendingPathComponent("landscape.jpg"))
        let session = try TmuxSession(command: "'\(TestEnvironment.qlbrowse)' --graphics symbols '\(ssh.url(files.path))'",
                                      environment: ["QLBROWSE_SSH_COMMAND": ssh.sshCommand, "QLBROWSE_REMOTE_COMMAND": ssh.remoteCommand])
        #expect(session.waitFor(20) { $0.contains("caf\\xE9.txt") && $0.contains("landscape.jpg") && $0.contains("ssh:127.0.0.1") }, "\(session.screen())")
        session.type("/land")
        session.send("Enter")
        #expect(session.waitFor(10) { !$0.contains("caf\\xE9.txt") && $0.contains("landscape.jpg") }, "\(session.screen())")
        // The picture the pane shows was made where the file is.
        let made = (0..<100).contains { _ in
            let found = (try? FileManager.default.subpathsOfDirectory(atPath: ssh.remoteCache.path))?.contains { $0.hasSuffix(".png") } ?? false
            if !found { usleep(100_000) }
            return found
        }
        #expect(made, "the remote's cache has the preview's picture")
        session.send("q")
        #expect(session.waitFor(10) { $0.contains("EXITED:0") }, "\(session.screen())")
    }

    /// A grid of 24 camera photos (the corpus's JPEGs) at 128-pixel cells: what crosses the link
    /// (photos' thumbnails as JPEG, frames and all) against the files' own bytes, which a local qlbrowse
    /// over sshfs reads whole. Prints the ratio.
    @Test func aGridOf24PhotosMovesLessThanTheirFiles() async throws {
        defer { ssh.stop() }
        let corpus = URL(fileURLWithPath: "/work/shared/corpus/images")
        let photos = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
            .filter { $0.lowercased().hasSuffix(".jpg") }.sorted().prefix(24)
        try #require(photos.count == 24, "needs 24 JPEGs in /work/shared/corpus/images")
        var fileBytes = 0
        for name in photos {
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(name), to: files.appendingPathComponent(name))
            fileBytes += (try FileManager.default.attributesOfItem(atPath: files.appendingPathComponent(name).path)[.size] as? Int) ?? 0
        }
        let place = try await connect(ssh.url(files.path))
        defer { place.disconnect() }
        let listed = try await place.entries(of: files.path)
        let before = place.traffic
        let items = listed.handles.map { handle -> PlaceItem in
            let entry = listed.entry(handle)
            return PlaceItem(path: files.path + "/" + entry.name, isDirectory: false, size: entry.size, modified: entry.modified)
        }
        let made = Counter()
        var options = ThumbnailOptions(size: 128, types: [.lowQuality, .thumbnail], concurrency: 4)
        options.checksVersion = false
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            place.fetchThumbnails(for: items, options: options, perItem: { _, result in if case .success = result { made.add() } },
                                  completion: { _ in continuation.resume() })
        }
        let after = place.traffic
        let linkBytes = after.received - before.received + after.sent - before.sent
        let ratio = Double(fileBytes) / Double(max(linkBytes, 1))
        print("remote grid of 24 photos at 128 px: \(made.value) pictures, \(linkBytes) bytes over the link, files \(fileBytes) bytes: 1/\(String(format: "%.1f", ratio)) of reading them whole")
        #expect(made.value >= 20, "most photos get a picture")
        // Issue #26's target: at most 1/30 of the files' bytes (PNG pictures moved 1/11; photos' as JPEG, ~1/50).
        #expect(linkBytes * 30 <= fileBytes, "the link carries at most 1/30 of what reading the files would")
    }
}

/// A count shared with callbacks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
