import Testing
@testable import BrowserCore
import FileSystemKit

/// The screen feature's reducer: the help, the terminal, quitting.
@Suite struct ScreenActionTests {
    @Test func theHelpTurnsItsPagesAndTheScreenResizesAndQuits() {
        var state = BrowserState.browsing((0..<30).map { "f\($0)" })
        state.apply(.screen(.help))
        state.apply(.navigation(.pageDown))
        state.apply(.navigation(.moveDown(1)))
        #expect(state.overlay == .help && state.helpPage == 2 && state.cursor == 0, "the list underneath stays")
        state.apply(.screen(.help))
        #expect(state.overlay == nil)
        state.apply(.screen(.resize(rows: 40, columns: 120)))
        #expect(state.layout.rows == 40 && state.layout.columns == 120)
        #expect(state.apply(.screen(.redraw)) == [.redraw])
        #expect(state.apply(.screen(.quit)) == [.quit(folder: "/home/me")])
    }
}
