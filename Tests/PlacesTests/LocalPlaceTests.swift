import Dispatch
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

/// The local file system as a place, against a temporary folder: every call of the protocol,
/// with a name that is not UTF-8 among the files.
@Suite struct LocalPlaceTests {
    /// `a\xFF.bin`: not UTF-8, so a lossy conversion would name another file.
    static let oddName = String(fileSystemBytes: [0x61, 0xFF, 0x2E, 0x62, 0x69, 0x6E])

    private let root: String
    private let place: LocalPlace

    init() {
        root = NSTemporaryDirectory() + "qlbrowse-place-\(UUID().uuidString.prefix(8))"
        _ = mkdir(root, 0o755)
        // Its own threads: a call of another suite that overran its deadline on "/" (a loaded
        // machine) must not make this one's calls refused.
        place = LocalPlace(io: VolumeIO(), volumes: { [] }, dataHome: root + "/data")
    }

    private func make(_ name: String, _ bytes: [UInt8]) {
        let fd = open(root + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        _ = FileDescriptorWriter.writeAll(bytes, to: fd)
        close(fd)
    }

    private func cleanUp() { try? FileManager.default.removeItem(atPath: root) }

    @Test func listsEveryNameAsItsBytesInBatches() async throws {
        defer { cleanUp() }
        make(Self.oddName, [1, 2, 3])
        mkdir(root + "/album", 0o755)
        for index in 0..<300 { make("photo \(index).jpg", []) }
        var batches = 0
        var all = EntryStore()
        for try await batch in place.listing(root) {
            batches += 1
            _ = all.append(contentsOf: batch)
        }
        #expect(all.count == 302)
        #expect(batches >= 2, "the first batch is small so the first screen paints at once")
        let odd = try #require(all.handles.map(all.entry).first { $0.nameBytes == [0x61, 0xFF, 0x2E, 0x62, 0x69, 0x6E] })
        #expect(odd.size == 3 && !odd.isDirectory)
        #expect(all.handles.map(all.entry).contains { $0.name == "album" && $0.isDirectory })
    }

    @Test func mountPointsInTheFolderAreListedWithoutAStatByTheirBytes() async throws {
        defer { cleanUp() }
        // Files stand where the volumes say mount points are: a listing that stat'ed them would
        // show files; one that leaves mount points alone (a hung share's never answers) shows
        // folders. The name that is not UTF-8 must match as its bytes.
        let names = [Self.oddName, "plain"]
        for name in names { make(name, [1]) }
        let volumes = names.map { Volume(mountPoint: root + "/" + $0, fsType: "cifs", source: "//nas/x", device: "0:9", kind: .network,
                                         isReadOnly: false, label: $0) }
        let mounted = LocalPlace(io: VolumeIO(), volumes: { volumes }, dataHome: root + "/data")
        var all = EntryStore()
        for try await batch in mounted.listing(root) { _ = all.append(contentsOf: batch) }
        for name in names {
            let entry = try #require(all.handles.map(all.entry).first { $0.nameBytes == name.fileSystemBytes })
            #expect(entry.isDirectory, "\(name.fileSystemBytes) was stat'ed")
        }
    }

    @Test func aFolderThatCannotBeListedFails() async {
        defer { cleanUp() }
        await #expect(throws: FileSystemError.self) { _ = try await place.entries(of: root + "/missing") }
    }

    @Test func cancelledListingSaysNothingMore() async throws {
        defer { cleanUp() }
        for index in 0..<2_000 { make("\(index)", []) }
        let heard = Mutex(0)
        let task = place.list(root) { _, _, _ in heard.withLock { $0 += 1 } }
        task.cancel()
        try await Task.sleep(for: .milliseconds(300))
        let after = heard.withLock { $0 }
        try await Task.sleep(for: .milliseconds(200))
        #expect(task.isCancelled && heard.withLock { $0 } == after && after <= 1)
    }

    @Test func statsFilesFoldersAndLinks() async throws {
        defer { cleanUp() }
        make(Self.oddName, Array(repeating: 7, count: 1_000))
        symlink(root + "/" + Self.oddName, root + "/link")
        let file = try await place.item(at: root + "/" + Self.oddName)
        #expect(file.size == 1_000 && !file.isDirectory && !file.isSymbolicLink && file.modified > 0)
        let link = try await place.item(at: root + "/link")
        #expect(link.isSymbolicLink && link.size == 1_000 && link.version == file.version)
        #expect(try await place.item(at: root).isDirectory)
        do {
            _ = try await place.item(at: root + "/nothing")
            Issue.record("a missing item was found")
        } catch {
            #expect(error.code == .notFound)
        }
    }

    @Test func readsARangeOfAFileWithAnOddName() async throws {
        defer { cleanUp() }
        make(Self.oddName, (0..<200).map { UInt8($0) })
        #expect(try await place.read(root + "/" + Self.oddName, offset: 10, length: 5) == [10, 11, 12, 13, 14])
        #expect(try await place.read(root + "/" + Self.oddName, offset: 195, length: 100) == [195, 196, 197, 198, 199], "fewer at the end")
        #expect(try await place.read(root + "/" + Self.oddName, offset: 500, length: 10) == [])
        do {
            _ = try await place.read(root, offset: 0, length: 1)
            Issue.record("a folder was read as a file")
        } catch {
            #expect(error.errno == EISDIR)
        }
    }

    @Test func writesWholeFilesAtomicallyKeepingPermissions() async throws {
        defer { cleanUp() }
        let path = root + "/" + Self.oddName
        try await place.write([1, 2, 3], to: path)
        #expect(try await place.read(path, offset: 0, length: 10) == [1, 2, 3])
        chmod(path, 0o600)
        try await place.write([4, 5], to: path)
        #expect(try await place.read(path, offset: 0, length: 10) == [4, 5])
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try await place.entries(of: root).count == 1, "no temporary left behind")
        await #expect(throws: FileSystemError.self) { try await place.write([1], to: root + "/missing/file") }
    }

    @Test func watchingSeesANewFileAndTheFolderGoing() async throws {
        defer { cleanUp() }
        let folder = root + "/watched"
        mkdir(folder, 0o755)
        let changes = try await place.watch(folder)
        let seen = Task { () -> [PlaceChange] in
            var seen: [PlaceChange] = []
            for await change in changes { seen.append(change) }
            return seen
        }
        make("watched/" + Self.oddName, [1])
        try await Task.sleep(for: .milliseconds(100))
        unlink(folder + "/" + Self.oddName)
        rmdir(folder)
        let all = try await Self.within(seconds: 60) { await seen.value }
        #expect(all.first == .changed(name: [0x61, 0xFF, 0x2E, 0x62, 0x69, 0x6E]), "the new name, as its bytes")
        #expect(all.last == .gone, "the stream says the folder is gone, then ends")
        await #expect(throws: FileSystemError.self) { _ = try await place.watch(root + "/missing") }
    }

    @Test func renamesMakesAndCopiesWithoutClobbering() async throws {
        defer { cleanUp() }
        make(Self.oddName, [9, 9])
        make("taken", [1])
        do {
            _ = try await place.rename(root + "/" + Self.oddName, to: root + "/taken")
            Issue.record("a rename went over an existing name")
        } catch {
            #expect(error.errno == EEXIST)
        }
        let stamp = try await place.rename(root + "/" + Self.oddName, to: root + "/renamed")
        #expect(stamp?.size == 2)
        #expect(try await place.make(root + "/album", folder: true)?.isFolder == true)
        await #expect(throws: FileSystemError.self) { _ = try await place.make(root + "/album", folder: false) }
        let progress = Mutex(0)
        let report = try await place.perform(FileOperation(kind: .copy, sources: [root + "/renamed"], destination: root + "/album"),
                                             events: FileOperationEvents(progress: { _ in progress.withLock { $0 += 1 } }))
        #expect(report.done == [root + "/renamed"] && report.failures.isEmpty)
        #expect(try await place.read(root + "/album/renamed", offset: 0, length: 10) == [9, 9])
        let trashed = try await place.trash(root + "/taken")
        await #expect(throws: FileSystemError.self) { _ = try await place.item(at: root + "/taken") }
        #expect(try await place.restore(trashed) == root + "/taken")
        #expect(try await place.item(at: root + "/taken").size == 1)
    }

    @Test func thumbnailsForItemsComeOneByOneKeyedByVersion() async throws {
        defer { cleanUp() }
        make(Self.oddName, Array("plain text".utf8))
        make("b.txt", Array("more".utf8))
        let odd = try await place.item(at: root + "/" + Self.oddName)
        let current = try await place.item(at: root + "/b.txt")
        // An item as it was listed before it changed: same path, another version.
        let stale = PlaceItem(path: current.path, isDirectory: false, size: current.size + 1, modified: current.modified)
        let results = Mutex<[String: Result<Representation, ThumbnailError>]>([:])
        let finished = try await Self.within(seconds: 60) {
            await withCheckedContinuation { (continuation: CheckedContinuation<ThumbnailError?, Never>) in
                place.fetchThumbnails(for: [odd, stale], options: ThumbnailOptions(types: [.icon]), perItem: { item, result in
                    results.withLock { $0[item.path + "\(item.size)"] = result }
                }, completion: { continuation.resume(returning: $0) })
            }
        }
        #expect(finished == nil)
        let all = results.withLock { $0 }
        #expect(all.count == 2)
        #expect((try? all[odd.path + "\(odd.size)"]?.get())?.type == .icon)
        guard case .failure(let error)? = all[stale.path + "\(stale.size)"] else { Issue.record("a changed item got a picture"); return }
        #expect(error.reason.contains("changed"))
    }

    @Test func theBrowsersFetchIsProgressiveAndTakesTheFileAsItIsNow() async throws {
        defer { cleanUp() }
        make("c.txt", Array("now".utf8))
        let current = try await place.item(at: root + "/c.txt")
        // As the browser listed it before it changed: without the version check it is made as it is now.
        let listed = PlaceItem(path: current.path, isDirectory: false, size: current.size + 5, modified: current.modified - 60)
        var options = ThumbnailOptions(types: [.icon], concurrency: 1)
        options.progressive = true
        options.checksVersion = false
        options.maximumIconSide = 32
        let asked = options
        let made = try await Self.within(seconds: 60) { () async -> [Representation] in
            var all: [Representation] = []
            do {
                for try await representation in place.thumbnails(of: listed, options: asked) { all.append(representation) }
            } catch {
                Issue.record("the fetch failed: \(error)")
            }
            return all
        }
        #expect(made.map(\.type) == [.icon])
        #expect(made.first.map { max($0.image.width, $0.image.height) <= 32 } == true, "the icon is capped")
        // The same item with the check (a batch's way) fails as changed.
        options.checksVersion = true
        await #expect(throws: ThumbnailError.self) {
            for try await _ in place.thumbnails(of: listed, options: options) {}
        }
    }

    @Test func aBatchWalksThePlacesFoldersAndReportsEachFile() async throws {
        defer { cleanUp() }
        _ = mkdir(root + "/inner", 0o755)
        make("one.zip", [0x50, 0x4B])
        make("inner/" + Self.oddName + ".zip", [0x50, 0x4B])
        // Archives are skipped before any decoding: the walk and the outcomes are the place's, no worker is started.
        // The limit catches a hang, not slowness (20 s was missed on a machine loaded to 16).
        let events = try await Self.within(seconds: 90) { () async -> (total: Int?, files: [String: String]) in
            var total: Int?
            var files: [String: String] = [:]
            for await event in place.thumbnailFolders([root], options: BatchOptions()) {
                switch event {
                case .found(let count): total = count
                case .file(let path, .skipped(let why)): files[path] = why
                case .file(let path, _): files[path] = "not skipped"
                case .unlisted: break
                }
            }
            return (total, files)
        }
        #expect(events.total == 2)
        #expect(events.files.keys.sorted() == [root + "/inner/" + Self.oddName + ".zip", root + "/one.zip"].sorted())
        #expect(events.files.values.allSatisfy { $0.hasPrefix("no thumbnailer") })
    }

    @Test func cancellingAFetchEndsTheRestAsCancelled() async throws {
        defer { cleanUp() }
        var items: [PlaceItem] = []
        for index in 0..<20 {
            make("\(index).txt", [1])
            items.append(try await place.item(at: root + "/\(index).txt"))
        }
        let holder = Holder()
        let results = Mutex<[Bool]>([])
        let asked = items
        let finished = try await Self.within(seconds: 60) {
            await withCheckedContinuation { (continuation: CheckedContinuation<ThumbnailError?, Never>) in
                let progress = place.fetchThumbnails(for: asked, options: ThumbnailOptions(types: [.icon], concurrency: 1), perItem: { _, result in
                    // The first item waits until the test holds the progress, then cancels the rest.
                    holder.ready.wait()
                    holder.ready.signal()
                    holder.progress.withLock { $0 }?.cancel()
                    results.withLock { $0.append((try? result.get()) != nil) }
                }, completion: { continuation.resume(returning: $0) })
                holder.progress.withLock { $0 = progress }
                holder.ready.signal()
            }
        }
        #expect(finished?.code == .cancelled)
        let made = results.withLock { $0 }
        #expect(made.count == 20, "every item hears its completion")
        #expect(made.first == true && made.dropFirst().allSatisfy { !$0 }, "the first was made; the rest were cancelled")
        #expect(holder.progress.withLock { $0 }?.completedCount == 20)
    }

    private final class Holder: Sendable {
        let progress = Mutex<PlaceProgress?>(nil)
        let ready = DispatchSemaphore(value: 0)
    }

    /// `body`'s value, or a failure after `seconds` (a test never hangs on a missing event).
    /// A guard against a hang, not a timing test: limits are generous for a machine busy with the whole run.
    static func within<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw CancellationError() }
            return value
        }
    }
}
