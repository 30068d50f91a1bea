import BrowserCore
import CNcurses

/// Turns keys into browser actions, depending on what the user is doing (typing a filter, in
/// the grid, in an overlay). Which key means which command comes from the `KeyMap`; Esc and
/// Ctrl-C always keep their meaning, so a config can never lock the user in.
enum KeyBindings {
    static func action(for key: KeyInput, state: BrowserState, keys: KeyMap = .standard) -> BrowserAction? {
        switch key {
        case .resize, .focusIn: return nil
        case .wheel(let delta): return .scroll(delta)
        case .click(let row, let column): return .click(row: row, column: column)
        case .character(let value) where state.isTypingFilter: return filterKey(value)
        case .character(let value) where state.prompt != nil: return promptKey(value)
        case .function(let code) where state.prompt != nil:
            switch code {
            case KEY_BACKSPACE: return .promptBackspace
            case KEY_ENTER: return .promptAccept
            case KEY_LEFT: return .promptMove(-1)
            case KEY_RIGHT: return .promptMove(1)
            case KEY_HOME: return .promptMove(-10_000)
            case KEY_END: return .promptMove(10_000)
            default: return nil
            }
        case .character(let value) where state.overlay.map(isQuestion) == true:
            return answerKey(value, state: state)
        case .function(let code) where state.isTypingFilter:
            if code == KEY_BACKSPACE { return .filterBackspace }
            if code == KEY_ENTER { return .filterAccept }
        case .character(27): return state.overlay != nil ? .closeOverlay : (state.filter.isEmpty ? nil : .filterCancel)
        case .character(3): return .quit
        default: break
        }
        return keys.command(for: key).map { action(for: $0, state: state) }
    }

    static func action(for command: KeyMap.Command, state: BrowserState) -> BrowserAction {
        // `T` on a stick or share asks: Enter for the personal cache, s to also share the thumbnails there.
        if case .confirmBatch = state.overlay {
            if command == .open { return .confirmBatch(shared: false) }
            if command == .sort { return .confirmBatch(shared: true) }
        }
        let grid = state.view == .grid && state.overlay == nil
        switch command {
        case .down: return .moveDown(grid ? state.layout.gridColumns : 1)
        case .up: return .moveUp(grid ? state.layout.gridColumns : 1)
        case .left: return grid ? .moveLeft : (state.overlay == .quickLook ? .moveLeft : .parent)
        case .right: return grid ? .moveRight : (state.overlay == .quickLook ? .moveRight : .open)
        case .parent: return .parent
        case .open: return state.overlay == .quickLook ? .closeOverlay : .open
        case .top: return .home
        case .bottom: return .end
        case .pageDown: return .pageDown
        case .pageUp: return .pageUp
        case .filter: return .startFilter
        case .hidden: return .toggleHidden
        case .sort: return .cycleSort
        case .extensions: return .toggleExtensions
        case .view: return .toggleView
        case .quickLook: return state.overlay == .jobs ? .togglePauseJob : .quickLook
        case .help: return .help
        case .quit: return state.overlay != nil ? .closeOverlay : .quit
        case .volumes: return state.overlay == .volumes ? .closeOverlay : .toggleVolumes
        case .batch: return .startBatch
        case .jobs: return state.overlay == .jobs ? .closeOverlay : .toggleJobs
        case .cancel: return .cancelJob
        case .mark: return .toggleMark
        case .invertMarks: return .invertMarks
        case .unmark: return .clearMarks
        case .copy: return .copyMarked
        case .cut: return .cutMarked
        case .paste: return .paste
        case .rename: return .startRename
        case .create: return .startCreate
        case .trash: return .trashMarked
        case .delete: return .deleteMarked
        case .restore: return .restoreTrashed
        // The app repaints before it asks for an action; for the state, the screen stays as it is.
        case .redraw: return .resize(rows: state.layout.rows, columns: state.layout.columns)
        }
    }

    private static func isQuestion(_ overlay: Overlay) -> Bool {
        switch overlay {
        case .conflict, .confirmDelete: return true
        default: return false
        }
    }

    /// o/s/k (capitals: for all the rest) for a taken name; y or Enter to delete for good.
    private static func answerKey(_ value: UInt32, state: BrowserState) -> BrowserAction? {
        guard let scalar = Unicode.Scalar(value) else { return nil }
        if case .confirmDelete = state.overlay {
            switch scalar {
            case "y", "Y", "\r", "\n": return .confirmDelete
            case "n", "N", "q", "\u{1B}": return .closeOverlay
            default: return nil
            }
        }
        switch scalar {
        case "o": return .answerConflict(.overwrite, applyToAll: false)
        case "O": return .answerConflict(.overwrite, applyToAll: true)
        case "s": return .answerConflict(.skip, applyToAll: false)
        case "S": return .answerConflict(.skip, applyToAll: true)
        case "k", "\r", "\n": return .answerConflict(.keepBoth, applyToAll: false)
        case "K": return .answerConflict(.keepBoth, applyToAll: true)
        case "\u{1B}": return .closeOverlay
        default: return nil
        }
    }

    private static func promptKey(_ value: UInt32) -> BrowserAction? {
        switch value {
        case 13, 10: return .promptAccept
        case 27: return .promptCancel
        case 127, 8: return .promptBackspace
        case 0..<32: return nil
        default: return Unicode.Scalar(value).map { .promptInput(String(Character($0))) }
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
}
