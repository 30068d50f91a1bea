import Testing
@testable import BrowserCore
import FileSystemKit

/// The changes feature's reducer: undo, redo and bulk rename.
@Suite struct ChangeActionTests {
    @Test func undoAndBulkRenameAreTheBrowsersNotAPanels() {
        var state = BrowserState.browsing(["a"])
        #expect(state.apply(.changes(.undo)) == [.undo])
        #expect(state.apply(.changes(.redo)) == [.redo])
        #expect(state.apply(.changes(.startBulkRename)) == [.editNames(folder: "/home/me", names: ["a"])])
        state.apply(.screen(.help))
        #expect(state.apply(.changes(.undo)).isEmpty, "not from under the help")
        var empty = BrowserState.browsing([])
        #expect(empty.apply(.changes(.startBulkRename)).isEmpty && empty.message == "nothing to rename here")
    }
}
