import Foundation
import Testing
@testable import FileSystemKit
import Synchronization
import SystemKit
import ThumbnailKit

/// File operations on real folders: each item all or nothing, names never clobbered unasked.
@Suite struct FileOperationTests {
    private func folder(_ name: String = "ops") -> String {
        let path = NSTemporaryDirectory() + "qlbrowse-\(name)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func write(_ text: String, _ path: String) { try? text.write(toFile: path, atomically: false, encoding: .utf8) }
    private func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
    private func names(_ path: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    private func run(_ operation: FileOperation, answer: FileOperation.ConflictChoice = .keepBoth, all: Bool = false) -> FileOperation.Report {
        operation.run(trash: nil, resolve: { _ in (answer, all) }, progress: { _ in })
    }

    @Test func copiesKeepBothNamesAndNeverClobberUnasked() {
        let root = folder(), source = root + "/src", target = root + "/dst"
        defer { try? FileManager.default.removeItem(atPath: root) }
        mkdir(source, 0o755); mkdir(target, 0o755); mkdir(source + "/album", 0o755)
        write("new", source + "/photo.jpg"); write("old", target + "/photo.jpg"); write("inner", source + "/album/a.txt")
        let report = run(FileOperation(kind: .copy, sources: [source + "/photo.jpg", source + "/album"], destination: target))
        #expect(report.done.count == 2 && report.notDone.isEmpty)
        #expect(names(target) == ["album", "photo (2).jpg", "photo.jpg"])
        #expect(read(target + "/photo.jpg") == "old" && read(target + "/photo (2).jpg") == "new" && read(target + "/album/a.txt") == "inner")
        let skipped = run(FileOperation(kind: .copy, sources: [source + "/photo.jpg"], destination: target), answer: .skip)
        #expect(skipped.skipped == [source + "/photo.jpg"] && read(target + "/photo.jpg") == "old")
        _ = run(FileOperation(kind: .copy, sources: [source + "/photo.jpg"], destination: target), answer: .overwrite)
        #expect(read(target + "/photo.jpg") == "new")
        #expect(!names(target).contains { $0.hasSuffix(".part") }, "no temporaries left")
    }

    @Test func pastingIntoTheSameFolderMakesACopyBeside() {
        let root = folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("x", root + "/notes.txt")
        #expect(run(FileOperation(kind: .copy, sources: [root + "/notes.txt"], destination: root)).done.count == 1)
        #expect(names(root) == ["notes (2).txt", "notes.txt"])
    }

    @Test func aMoveOnOneVolumeIsARename() throws {
        let root = folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        mkdir(root + "/to", 0o755)
        write("data", root + "/file.bin")
        var before = stat()
        stat(root + "/file.bin", &before)
        let report = run(FileOperation(kind: .move, sources: [root + "/file.bin"], destination: root + "/to"))
        var after = stat()
        #expect(report.done.count == 1 && stat(root + "/to/file.bin", &after) == 0 && after.st_ino == before.st_ino)
        #expect(!FileManager.default.fileExists(atPath: root + "/file.bin"))
    }

    @Test func aCancelledCopyLeavesNothingAndTheSourceIntact() throws {
        let root = folder(), target = root + "/dst"
        defer { try? FileManager.default.removeItem(atPath: root) }
        mkdir(target, 0o755)
        let big = root + "/big.bin"
        let data = Data((0..<(24 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try data.write(to: URL(fileURLWithPath: big))
        let operation = FileOperation(kind: .copy, sources: [big], destination: target)
        let report = operation.run(trash: nil, resolve: { _ in (.skip, false) }, progress: { progress in
            if progress.bytesDone > 0 { operation.cancel() }
        })
        #expect(report.cancelled && report.notDone == [big] && report.done.isEmpty)
        #expect(names(target).isEmpty, "no partial file, no temporary: \(names(target))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: big)) == data)
    }

    @Test func checksRefuseBeforeAnyByteIsWritten() {
        let root = folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        mkdir(root + "/dst", 0o755)
        write("x", root + "/a:b.txt")
        write("y", root + "/Readme.md")
        write("z", root + "/dst/README.md")
        let fat = VolumeCapabilities.probe(folder: root + "/dst", fsType: "fuse.fusefat", trial: false)
        #expect(FileOperation(kind: .copy, sources: [root + "/a:b.txt"], destination: root + "/dst").problem(destinationCapabilities: fat)?.contains("\":\"") == true)
        var caseless = fat
        caseless.isCaseInsensitive = true
        caseless.forbiddenCharacters = []
        #expect(FileOperation(kind: .copy, sources: [root + "/Readme.md"], destination: root + "/dst").problem(destinationCapabilities: caseless)?.contains("differ only in case") == true)
        var readOnly = caseless
        readOnly.isReadOnly = true
        #expect(FileOperation(kind: .copy, sources: [root + "/Readme.md"], destination: root + "/dst").problem(destinationCapabilities: readOnly)?.contains("read-only") == true)
        #expect(FileOperation(kind: .copy, sources: [root + "/dst"], destination: root + "/dst").problem(destinationCapabilities: nil)?.contains("inside itself") == true)
        #expect(names(root + "/dst") == ["README.md"])
    }

    @Test func trashedItemsFollowTheSpecAndComeBack() throws {
        let root = folder(), data = root + "/data"
        defer { try? FileManager.default.removeItem(atPath: root) }
        mkdir(data, 0o700)
        write("keep me", root + "/my notes.txt")
        let can = TrashCan(dataHome: data, mountPoints: ["/"])
        let report = FileOperation(kind: .trash, sources: [root + "/my notes.txt"], destination: nil).run(trash: can, resolve: { _ in (.skip, false) }, progress: { _ in })
        let item = try #require(report.trashed.first)
        #expect(item.trashedPath == data + "/Trash/files/my notes.txt")
        let info = try #require(read(data + "/Trash/info/my notes.txt.trashinfo"))
        let lines = info.split(separator: "\n")
        #expect(lines.first == "[Trash Info]")
        #expect(lines.contains { $0 == "Path=\(root.replacingOccurrences(of: " ", with: "%20"))/my%20notes.txt" }, "\(info)")
        #expect(lines.contains { $0.hasPrefix("DeletionDate=") && $0.count == "DeletionDate=2026-11-22T08:40:12".count })
        write("again", root + "/my notes.txt")
        let second = try can.trash(root + "/my notes.txt")
        #expect(second.trashedPath.hasSuffix("/files/my notes.txt.2"))
        #expect(try can.restore(item) == root + "/my notes.txt" && read(root + "/my notes.txt") == "keep me")
        #expect(!FileManager.default.fileExists(atPath: item.infoPath))
    }

    @Test func aNewAccountsHomeTrashIsMadeWithItsParents() throws {
        let root = folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("photo", root + "/a.jpg")
        // $XDG_DATA_HOME does not exist yet: the file goes to the home trash, made with its parents,
        // not to a trash at the top of the disk.
        let item = try TrashCan(dataHome: root + "/home/.local/share", mountPoints: ["/"]).trash(root + "/a.jpg")
        #expect(item.trashedPath == root + "/home/.local/share/Trash/files/a.jpg")
        #expect(read(item.trashedPath) == "photo")
    }

    @Test func thumbnailsFollowAMovedFile() throws {
        let root = folder(), cacheRoot = root + "/cache"
        defer { try? FileManager.default.removeItem(atPath: root) }
        write("content", root + "/a.txt")
        let cache = ThumbnailCache(root: cacheRoot)
        let request = ThumbnailRequest(path: root + "/a.txt", size: 256)
        try cache.store(Representation(type: .thumbnail, image: PixelImage(width: 4, height: 4, filledWith: .clear), source: "test", contentType: .unknown), for: request, box: PixelSize(width: 256, height: 256))
        #expect(cache.hasValidThumbnail(forFile: root + "/a.txt", box: PixelSize(width: 256, height: 256)))
        rename(root + "/a.txt", root + "/b.txt")
        cache.moveThumbnails(from: root + "/a.txt", to: root + "/b.txt")
        let fresh = ThumbnailCache(root: cacheRoot)
        #expect(fresh.hasValidThumbnail(forFile: root + "/b.txt", box: PixelSize(width: 256, height: 256)))
        #expect(!FileManager.default.fileExists(atPath: cache.path(forFile: root + "/a.txt", flavor: .large)))
        cache.removeThumbnails(for: root + "/b.txt")
        #expect(!FileManager.default.fileExists(atPath: cache.path(forFile: root + "/b.txt", flavor: .large)))
    }
}

/// A move across volumes checks each copied file once more right before the original goes.
@Suite struct MoveRecheckTests {
    /// The file the test changed, set from the copy's progress callback.
    final class ChangedFile: Sendable {
        let path = Mutex<String?>(nil)
    }

    /// A file changed after its copy was put in place, while the rest of the item still copies:
    /// the whole item stays where it was, with the change, and its copy is taken back.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/shm"), "needs a second volume (/dev/shm)"))
    func aFileChangedAfterItsCopyKeepsTheWholeItem() throws {
        let root = NSTemporaryDirectory() + "qlbrowse-recheck-\(UUID().uuidString.prefix(8))"
        let destination = "/dev/shm/qlbrowse-recheck-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: destination) }
        var rootStatus = stat(), destinationStatus = stat()
        try FileManager.default.createDirectory(atPath: root + "/album/one", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/album/two", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        guard stat(root, &rootStatus) == 0, stat(destination, &destinationStatus) == 0, rootStatus.st_dev != destinationStatus.st_dev else { return }
        // Two files in folders of their own (copied one after the other), 24 MB each: several progress calls apiece.
        let paths = [root + "/album/one/a.bin", root + "/album/two/b.bin"]
        for path in paths { FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: 24 << 20)) }
        let changed = ChangedFile()
        let operation = FileOperation(kind: .move, sources: [root + "/album"], destination: destination)
        // While one file copies, the other one, already copied and in place, is written to.
        let report = operation.run(trash: nil, resolve: { _ in (.skip, true) }, progress: { _ in
            changed.path.withLock { changed in
                guard changed == nil else { return }
                for path in paths {
                    let relative = String(path.dropFirst(root.count))
                    if FileManager.default.fileExists(atPath: destination + relative), let handle = FileHandle(forUpdatingAtPath: path) {
                        handle.write(Data("CHANGED".utf8))
                        try? handle.close()
                        changed = path
                        return
                    }
                }
            }
        })
        let name = try #require(changed.path.withLock { $0 }, "a copied file was changed while the other copied")
        #expect(report.done.isEmpty && report.notDone == [root + "/album"], "\(report)")
        #expect(report.failures.first?.contains("\(FileOperation.name(name)) changed while it was copied; kept") == true, "\(report.failures)")
        #expect(FileManager.default.contents(atPath: name)?.prefix(7) == Data("CHANGED".utf8), "the source keeps the change")
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the whole item stays")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []).isEmpty, "its copy is taken back")
    }

    /// A file that appears in a folder while the folder is moved was never copied: it stays.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/shm"), "needs a second volume (/dev/shm)"))
    func aFileThatAppearsWhileItsFolderIsMovedStays() throws {
        let root = NSTemporaryDirectory() + "qlbrowse-appear-\(UUID().uuidString.prefix(8))"
        let destination = "/dev/shm/qlbrowse-appear-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root); try? FileManager.default.removeItem(atPath: destination) }
        try FileManager.default.createDirectory(atPath: root + "/album", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root + "/album/big.bin", contents: Data(repeating: 7, count: 24 << 20))
        let late = root + "/album/late.txt"
        let operation = FileOperation(kind: .move, sources: [root + "/album"], destination: destination)
        // Made once bytes flow: after the folder was listed for the copy.
        let report = operation.run(trash: nil, resolve: { _ in (.skip, true) }, progress: { state in
            if state.bytesDone > 0 && !FileManager.default.fileExists(atPath: late) { FileManager.default.createFile(atPath: late, contents: Data("late".utf8)) }
        })
        #expect(FileManager.default.contents(atPath: late) == Data("late".utf8), "the late file is still there")
        #expect(report.failures.first?.contains("late.txt changed while it was copied; kept") == true, "\(report.failures)")
        #expect(FileManager.default.fileExists(atPath: destination + "/album/big.bin"), "what was copied is at the destination")
    }
}
