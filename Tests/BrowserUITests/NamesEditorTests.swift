import Foundation
import Testing
@testable import BrowserUI

/// Bulk rename's list in the user's editor: what the editor saved is read back line by line.
struct NamesEditorTests {
    /// Runs `NamesEditor.edit` with an "editor" that saves `saved` over the list.
    private func edited(_ names: [String], saving saved: String) -> [String]? {
        NamesEditor.edit(names, environment: ["EDITOR": "editor", "TMPDIR": NSTemporaryDirectory()]) { command in
            FileManager.default.createFile(atPath: command.last!, contents: Data(saved.utf8))
            return 0
        }
    }

    @Test func aListSavedWithCRLFLineEndsHasOneLinePerName() {
        let names = ["a.jpg", "b.jpg", "c.jpg", "d.jpg"]
        #expect(edited(names, saving: "one.jpg\r\ntwo.jpg\r\nthree.jpg\r\nfour.jpg\r\n") == ["one.jpg", "two.jpg", "three.jpg", "four.jpg"])
        #expect(edited(names, saving: "one.jpg\r\ntwo.jpg\r\nthree.jpg\r\nfour.jpg") == ["one.jpg", "two.jpg", "three.jpg", "four.jpg"])
    }

    @Test func aListSavedWithLFLineEndsIsReadAsBefore() {
        #expect(edited(["a", "b"], saving: "x\ny\n") == ["x", "y"])
        #expect(edited(["a", "b"], saving: "x\n\n") == ["x", ""], "an emptied line stays, for the plan to name")
    }
}
