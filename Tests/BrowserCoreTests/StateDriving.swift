@testable import BrowserCore
import FileSystemKit

/// Driving a state in tests as the shell does: listings arriving, keys pressed.
extension BrowserState {
    /// `names` (and `folders`) arrive as the current folder's whole listing.
    mutating func list(_ names: [String], folders: [String] = []) {
        let entries = names.map { Entry(name: $0) } + folders.map { Entry(name: $0, isDirectory: true) }
        apply(.listed(ticket: ticket, entries: EntryStore(entries), complete: true))
    }

    /// The key typed as `text`, bound to `command` in the key map.
    @discardableResult
    mutating func press(_ text: String, _ command: Command? = nil) -> [BrowserEffect] {
        apply(.key(.character(text.unicodeScalars.first!.value), command))
    }
}

extension BrowserState {
    /// Browsing /home/me at 24×100, listed with `names` (and `folders`).
    static func browsing(_ names: [String], folders: [String] = []) -> BrowserState {
        var state = BrowserState(folder: "/home/me", layout: ScreenLayout(rows: 24, columns: 100))
        _ = state.start()
        state.list(names, folders: folders)
        return state
    }
}
