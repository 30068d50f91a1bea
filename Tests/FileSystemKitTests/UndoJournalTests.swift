import Foundation
import Testing
@testable import FileSystemKit
import ThumbnailKit

/// Undo and redo of file operations on real files: the journal's steps, their checks (nothing
/// is undone over someone's change), all-or-nothing renames with swaps, and the journal read
/// back by the next run.
@Suite(.serialized) struct UndoJournalTests {
    private struct Place {
        let root: String
        let trash: TrashCan
        let journal: UndoJournal
        init(under base: String = FileManager.default.temporaryDirectory.path) throws {
            root = base + "/undo-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: root + "/data", withIntermediateDirectories: true)
            trash = TrashCan(dataHome: root + "/data", mountPoints: ["/"])
            journal = Self.journal(at: root + "/state/journal.json")
        }
        /// A journal written as the browser writes it.
        static func journal(at path: String) -> UndoJournal {
            UndoJournal(path: path) { try? AtomicFileWriter.writeState($0, to: $1) }
        }
        func write(_ text: String, _ name: String) { FileManager.default.createFile(atPath: root + "/" + name, contents: Data(text.utf8)) }
        func read(_ name: String) -> String? { (try? Data(contentsOf: URL(fileURLWithPath: root + "/" + name))).map { String(decoding: $0, as: UTF8.self) } }
        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func aRenameIsUndoneAndRedoneAndTheJournalOutlivesTheRun() throws {
        let place = try Place()
        defer { place.remove() }
        place.write("photo", "a.jpg")
        rename(place.root + "/a.jpg", place.root + "/b.jpg")
        place.journal.record(UndoStep(title: "the rename of a.jpg", actions: [.rename(from: place.root + "/b.jpg", to: place.root + "/a.jpg", expected: PathStamp.of(place.root + "/b.jpg")!)]))
        // A new run reads the journal.
        let next = Place.journal(at: place.journal.path)
        next.load()
        let undone = next.undo(trash: place.trash)
        #expect(undone.succeeded && undone.message == "undone: the rename of a.jpg (Z redoes)")
        #expect(place.read("a.jpg") == "photo" && place.read("b.jpg") == nil)
        #expect(next.redo(trash: place.trash).succeeded && place.read("b.jpg") == "photo")
        #expect(next.undo(trash: place.trash).succeeded && place.read("a.jpg") == "photo")
        #expect(next.undo(trash: place.trash).message == "nothing to undo")
    }

    @Test func aStepRecordedBeforeTheStartUpReadKeepsTheStepsBeforeIt() throws {
        let place = try Place()
        defer { place.remove() }
        place.write("one", "a.txt")
        place.write("two", "c.txt")
        rename(place.root + "/a.txt", place.root + "/b.txt")
        place.journal.record(UndoStep(title: "the rename of a.txt", actions: [.rename(from: place.root + "/b.txt", to: place.root + "/a.txt", expected: PathStamp.of(place.root + "/b.txt")!)]))
        // The next run finishes a rename before its start-up read of the journal has run.
        let next = Place.journal(at: place.journal.path)
        rename(place.root + "/c.txt", place.root + "/d.txt")
        next.record(UndoStep(title: "the rename of c.txt", actions: [.rename(from: place.root + "/d.txt", to: place.root + "/c.txt", expected: PathStamp.of(place.root + "/d.txt")!)]))
        next.load()
        #expect(next.undo(trash: place.trash).message == "undone: the rename of c.txt (Z redoes)")
        #expect(next.undo(trash: place.trash).message == "undone: the rename of a.txt (Z redoes)", "the earlier run's step was lost")
        #expect(place.read("a.txt") == "one" && place.read("c.txt") == "two")
    }

    /// Something other than a file planted at the journal's place (a shared or hostile state
    /// folder): a FIFO must not hold the read (nobody will ever write to it), a link to a device
    /// must not be read for ever; either way the journal starts empty and the thing is left alone.
    @Test(arguments: ["fifo", "device"])
    func somethingOtherThanAFileAtTheJournalsPlaceIsLeftAloneAndTheJournalStartsEmpty(_ kind: String) throws {
        let place = try Place()
        defer { place.remove() }
        let path = place.root + "/state/journal.json"
        try FileManager.default.createDirectory(atPath: place.root + "/state", withIntermediateDirectories: true)
        if kind == "fifo" {
            #expect(mkfifo(path, 0o600) == 0)
        } else {
            #expect(symlink("/dev/zero", path) == 0)
        }
        let journal = Place.journal(at: path)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            journal.load()
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 10) == .success, "reading the journal did not finish")
        #expect(!journal.canUndo)
        var info = stat()
        #expect(lstat(path, &info) == 0 && (kind == "fifo" ? info.st_mode & S_IFMT == S_IFIFO : info.st_mode & S_IFMT == S_IFLNK),
                "the planted \(kind) was moved or replaced")
    }

    @Test func anUndoThatWouldLoseAChangeRefusesAndSaysWhy() throws {
        let place = try Place()
        defer { place.remove() }
        place.write("copy", "copy.txt")
        place.journal.record(UndoStep(title: "the copy of notes.txt", actions: [.discard(place.root + "/copy.txt", expected: PathStamp.of(place.root + "/copy.txt")!)]))
        // Someone adds to the copy in place.
        let handle = try #require(FileHandle(forWritingAtPath: place.root + "/copy.txt"))
        handle.seekToEndOfFile()
        handle.write(Data(", then edited".utf8))
        handle.closeFile()
        let refused = place.journal.undo(trash: place.trash)
        #expect(!refused.succeeded && refused.message == "cannot undo the copy of notes.txt: copy.txt changed since", "\(refused.message)")
        #expect(place.read("copy.txt") == "copy, then edited" && place.journal.canUndo, "nothing touched, the step kept")
        place.write("replaced", "copy.txt")
        #expect(place.journal.undo(trash: place.trash).message.hasSuffix("copy.txt is another file now") || place.read("copy.txt") == "replaced")
    }

    @Test func aCopyIsUndoneIntoTheTrashAndRedoneFromIt() throws {
        let place = try Place()
        defer { place.remove() }
        place.write("made", "made.txt")
        place.journal.record(UndoStep(title: "the copy", actions: [.discard(place.root + "/made.txt", expected: PathStamp.of(place.root + "/made.txt")!)]))
        #expect(place.journal.undo(trash: place.trash).succeeded && place.read("made.txt") == nil)
        #expect(place.read("data/Trash/files/made.txt") == "made", "nothing is lost: it is in the Trash")
        #expect(place.journal.redo(trash: place.trash).succeeded && place.read("made.txt") == "made")
    }

    @Test func aMoveAcrossVolumesGoesBack() throws {
        // /dev/shm is another file system than the temporary folder.
        guard FileManager.default.fileExists(atPath: "/dev/shm"), let other = PathStamp.of("/dev/shm"),
              other.device != PathStamp.of(FileManager.default.temporaryDirectory.path)?.device else { return }
        let here = try Place(), there = try Place(under: "/dev/shm")
        defer { here.remove(); there.remove() }
        here.write(String(repeating: "x", count: 100_000), "big.bin")
        let report = FileOperation(kind: .move, sources: [here.root + "/big.bin"], destination: there.root).run(trash: nil, resolve: { _ in (.skip, false) }, progress: { _ in })
        let placed = try #require(report.placed.first)
        #expect(!placed.sameVolume && placed.target == there.root + "/big.bin")
        here.journal.record(UndoStep(title: "the move of big.bin", actions: [.move(from: placed.target, to: placed.source, expected: PathStamp.of(placed.target)!)]))
        #expect(here.journal.undo(trash: here.trash).succeeded)
        #expect(here.read("big.bin")?.count == 100_000 && there.read("big.bin") == nil)
    }

    @Test func renamesTogetherSwapAndGoBackOnAFailure() throws {
        let place = try Place()
        defer { place.remove() }
        place.write("A", "a.txt")
        place.write("B", "b.txt")
        place.write("C", "c.txt")
        let rename = { (from: String, to: String) in UndoAction.Rename(from: place.root + "/" + from, to: place.root + "/" + to, expected: PathStamp.of(place.root + "/" + from)!) }
        let swapped = UndoJournal.perform([.renames([rename("a.txt", "b.txt"), rename("b.txt", "a.txt")])], trash: place.trash)
        #expect(place.read("a.txt") == "B" && place.read("b.txt") == "A", "a swap works")
        guard case .success(let inverse) = swapped else { Issue.record("the swap failed"); return }
        #expect(UndoJournal.perform(inverse, trash: place.trash).isSuccess && place.read("a.txt") == "A")
        // c.txt → a.txt while a.txt stays: refused before anything moves.
        let clash = UndoJournal.perform([.renames([rename("c.txt", "a.txt")])], trash: place.trash)
        #expect(!clash.isSuccess && place.read("c.txt") == "C" && place.read("a.txt") == "A")
        #expect(try FileManager.default.contentsOfDirectory(atPath: place.root).filter { $0.hasPrefix(".qlbrowse-rename") }.isEmpty)
    }

    @Test func aBulkRenameIsCheckedBeforeAnythingMoves() {
        let names = ["a.jpg", "b.jpg", "c.jpg"]
        let swap = BulkRenamePlan(names: names, edited: ["b.jpg", "a.jpg", "c.jpg"], others: ["d.jpg"], capabilities: nil)
        #expect(swap.problems.isEmpty && swap.changes == [.init(from: "a.jpg", to: "b.jpg"), .init(from: "b.jpg", to: "a.jpg")])
        #expect(BulkRenamePlan(names: names, edited: ["d.jpg", "b.jpg", "c.jpg"], others: ["d.jpg"], capabilities: nil).problems
                == ["\"d.jpg\" is already in the folder (it is not in the list)"])
        #expect(BulkRenamePlan(names: names, edited: ["x.jpg", "x.jpg", "c.jpg"], others: [], capabilities: nil).problems == ["a.jpg and b.jpg would both be named \"x.jpg\""])
        #expect(BulkRenamePlan(names: names, edited: ["a.jpg", "b.jpg"], others: [], capabilities: nil).problems.first?.contains("2 lines for 3 names") == true)
        #expect(BulkRenamePlan(names: names, edited: ["a.jpg", "", "c/d.jpg"], others: [], capabilities: nil).problems.count == 2)
        #expect(BulkRenamePlan(names: names, edited: names + ["", " "], others: [], capabilities: nil).problems.isEmpty, "blank lines at the end are forgiven")
        var fat = VolumeCapabilities(isReadOnly: false, nameMax: 255, isCaseInsensitive: true, supportsSymlinks: false, maximumFileSize: nil, forbiddenCharacters: [":"])
        #expect(BulkRenamePlan(names: names, edited: ["a:1.jpg", "B.JPG", "c.jpg"], others: [], capabilities: fat).problems
                == ["line 1: this volume does not allow \":\" in names"])
        fat.forbiddenCharacters = []
        #expect(BulkRenamePlan(names: names, edited: ["x.jpg", "X.JPG", "c.jpg"], others: [], capabilities: fat).problems.count == 1, "one name when case does not count")
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
