import Testing
import ThumbnailKit
@testable import Places

/// The parts of saving an edit that need no worker: where the temporary goes and how it is named,
/// and how the passes' results add up. (Saving itself is run end to end by the integration tests
/// `EditCommandTests` and `QuickEditTests`.)
@Suite struct EditSaverTests {
    @Test func aPathSplitsIntoItsFolderAndName() {
        for (path, folder, name) in [("/home/a/b.jpg", "/home/a", "b.jpg"), ("/b.jpg", "/", "b.jpg"), ("b.jpg", ".", "b.jpg")] {
            let split = EditSaver.split(path)
            #expect(split.folder == folder && split.name == name)
        }
    }

    @Test func theTemporaryKeepsTheLastSuffix() {
        #expect(EditSaver.suffix(of: "a.tar.gz") == "gz")
        #expect(EditSaver.suffix(of: ".profile") == "")
        #expect(EditSaver.suffix(of: "README") == "")
    }

    @Test func leftoversAreHiddenAndNamedAfterTheFile() {
        #expect(EditSaver.leftoverPrefix("b.jpg") == ".b.jpg.qlbrowse-edit-")
        // A 255-byte name still gives a prefix short enough for a name.
        let long = String(repeating: "é", count: 127) + "x"
        #expect(EditSaver.leftoverPrefix(long).utf8.count <= 200 + ".".utf8.count + ".qlbrowse-edit-".utf8.count)
    }

    @Test func passesAddUp() {
        var trim = FileEditResult()
        trim.start = 8.3
        trim.end = 20
        trim.notes = ["starts at 0:08.3, the nearest keyframe"]
        var turn = FileEditResult()
        turn.width = 1080
        turn.height = 1920
        turn.pages = 2
        var again = FileEditResult()
        again.pages = 1
        let combined = EditSaver.combined([trim, turn, again])
        #expect(combined.start == 8.3 && combined.end == 20)
        #expect(combined.width == 1080 && combined.height == 1920)
        #expect(combined.pages == 3)
        #expect(combined.notes == ["starts at 0:08.3, the nearest keyframe"])
    }
}
