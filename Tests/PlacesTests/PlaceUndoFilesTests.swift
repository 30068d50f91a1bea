@testable import FileSystemKit
import Foundation
import Places
import SystemKit
import Testing

/// The journal through the router: a step naming a remote that is not connected (the browser
/// restarted) is refused with what to do, touches nothing (not even its parts on this
/// computer), and stays to be undone once the remote is connected; this computer's parts go
/// through the browser's own trash as before.
@Suite struct PlaceUndoFilesTests {
    @Test func aStepOnARemoteNotConnectedIsRefusedTouchesNothingAndStays() throws {
        let root = FileManager.default.temporaryDirectory.path + "/place-undo-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/data", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let trash = TrashCan(dataHome: root + "/data", mountPoints: ["/"])
        FileManager.default.createFile(atPath: root + "/a.txt", contents: Data("a".utf8))
        let item = try trash.trash(root + "/a.txt")
        let journal = UndoJournal(path: root + "/journal.json") { bytes, path in FileManager.default.createFile(atPath: path, contents: Data(bytes)) }
        // A move from the remote to here, undone: the source back from the remote's trash, this copy to the trash here.
        let odd = "ssh://me@nas:2222/photos/" + String(fileSystemBytes: Array("caf".utf8) + [0xE9])
        journal.record(UndoStep(title: "the move of a.txt", actions: [
            .restore(item),
            .discard(odd, expected: PathStamp(device: 1, inode: 2, isFolder: false, size: 1, seconds: 1, nanoseconds: 0))]))
        let files = PlaceUndoFiles(router: PlaceRouter(local: LocalPlace()), local: LocalUndoFiles(trash: trash))
        let outcome = journal.undo(files: files)
        #expect(outcome.message == "cannot undo the move of a.txt: ssh://me@nas:2222 is not connected: connect it to undo this" && !outcome.succeeded,
                "\(outcome.message)")
        #expect(!FileManager.default.fileExists(atPath: root + "/a.txt") && FileManager.default.fileExists(atPath: item.trashedPath),
                "this computer's part not done either")
        // The next run reads the step back, the remote's path byte for byte, and still refuses it.
        let next = UndoJournal(path: root + "/journal.json") { bytes, path in FileManager.default.createFile(atPath: path, contents: Data(bytes)) }
        #expect(next.canUndo)
        #expect(next.undo(files: files).message.hasSuffix("ssh://me@nas:2222 is not connected: connect it to undo this"))
        let saved = try String(contentsOfFile: root + "/journal.json", encoding: .utf8)
        #expect(saved.contains("ssh:\\/\\/me@nas:2222\\/photos\\/caf\u{EFE9}") || saved.contains("ssh://me@nas:2222/photos/caf\u{EFE9}"),
                "the path with its prefix, its byte kept: \(saved)")
    }
}
