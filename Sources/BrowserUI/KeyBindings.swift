import BrowserCore
import CNcurses

/// Turns keys into browser actions, depending on what the user is doing (typing a filter, in
/// the grid, in an overlay). vi keys and arrows both work.
enum KeyBindings {
    static func action(for key: KeyInput, state: BrowserState) -> BrowserAction? {
        switch key {
        case .resize: return nil
        case .wheel(let delta): return .scroll(delta)
        case .click(let row, let column): return .click(row: row, column: column)
        case .function(let code): return functionKey(code, state: state)
        case .character(let value):
            if state.isTypingFilter { return filterKey(value) }
            return characterKey(value, state: state)
        }
    }

    private static func functionKey(_ code: Int32, state: BrowserState) -> BrowserAction? {
        let step = state.view == .grid && state.overlay == nil ? state.layout.gridColumns : 1
        switch code {
        case KEY_DOWN: return .moveDown(step)
        case KEY_UP: return .moveUp(step)
        case KEY_LEFT: return .moveLeft
        case KEY_RIGHT: return .moveRight
        case KEY_NPAGE: return .pageDown
        case KEY_PPAGE: return .pageUp
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_BACKSPACE: return state.isTypingFilter ? .filterBackspace : .parent
        case KEY_ENTER: return state.isTypingFilter ? .filterAccept : .open
        default: return nil
        }
    }

    private static func filterKey(_ value: UInt32) -> BrowserAction? {
        switch value {
        case 13, 10: return .filterAccept
        case 27: return .filterCancel
        case 127, 8: return .filterBackspace
        case 0..<32: return nil
        default: return Unicode.Scalar(value).map { .filterInput(String(Character($0))) }
        }
    }

    private static func characterKey(_ value: UInt32, state: BrowserState) -> BrowserAction? {
        let grid = state.view == .grid && state.overlay == nil
        switch value {
        case 27: return state.overlay != nil ? .closeOverlay : (state.filter.isEmpty ? nil : .filterCancel)
        case 13, 10: return state.overlay == .quickLook ? .closeOverlay : .open
        case 127, 8: return .parent
        case 32: return .quickLook
        case 3: return .quit
        default: break
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        switch Character(scalar) {
        case "j": return .moveDown(grid ? state.layout.gridColumns : 1)
        case "k": return .moveUp(grid ? state.layout.gridColumns : 1)
        case "h": return grid ? .moveLeft : .parent
        case "l": return grid ? .moveRight : .open
        case "g": return .home
        case "G": return .end
        case "/": return .startFilter
        case ".": return .toggleHidden
        case "s": return .cycleSort
        case "e": return .toggleExtensions
        case "v": return .toggleView
        case "?": return .help
        case "q": return state.overlay != nil ? .closeOverlay : .quit
        default: return nil
        }
    }
}
