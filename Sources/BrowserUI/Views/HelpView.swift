import BrowserCore

/// The help overlay: every key, as the user's key map binds them, in a box.
struct HelpView {
    let context: ViewContext

    func draw(_ layout: ScreenLayout) {
        let screen = context.screen
        let lines = HelpText.lines(for: context.keys, width: layout.columns - 6, height: layout.rows - 4)
        let width = min(layout.columns - 2, (lines.map(\.count).max() ?? 40) + 4)
        let height = min(layout.rows - 2, lines.count + 2)
        let top = max(1, (layout.rows - height) / 2), left = max(1, (layout.columns - width) / 2)
        let style = context.style(.help)
        screen.fill(row: top, column: left, width: width, height: height, style: style)
        for (offset, line) in lines.prefix(height - 2).enumerated() {
            screen.text(line, row: top + 1 + offset, column: left + 2, width: width - 4, style: style)
        }
    }
}

/// The help overlay's lines, naming the keys as the user's key map binds them.
enum HelpText {
    private static let descriptions: [(Command, String)] = [
        (.down, "move down"), (.up, "move up"), (.left, "parent folder (grid: left)"), (.right, "open (grid: right)"),
        (.parent, "parent folder"), (.open, "open folder or file"), (.top, "first"), (.bottom, "last"),
        (.pageDown, "page down"), (.pageUp, "page up"), (.quickLook, "Quick Look"), (.filter, "filter (Enter keeps, Esc clears)"),
        (.view, "list / thumbnail grid"), (.sort, "sort: name, size, time, kind"), (.hidden, "hidden files"),
        (.extensions, "extensions"), (.volumes, "volumes: disks, sticks, shares"),
        (.batch, "thumbnail a folder in the background"), (.jobs, "jobs panel"), (.cancel, "cancel a job (jobs panel)"),
        (.mark, "mark"), (.invertMarks, "invert marks"), (.unmark, "clear marks"), (.copy, "copy marked (or this)"), (.cut, "cut marked (or this)"),
        (.paste, "paste here"), (.rename, "rename"), (.create, "new file, or folder with a trailing /"), (.trash, "move to the trash"),
        (.delete, "delete for good (asks)"), (.restore, "restore what was last trashed"), (.redraw, "redraw the screen and pictures"),
        (.back, "back to the folder before"), (.forward, "forward again"), (.bookmark, "bookmark this folder (then a key)"),
        (.jumpToBookmark, "go to a bookmark (then its key)"), (.bookmarks, "bookmarks list (d deletes, r rekeys)"),
        (.find, "find names below this folder"), (.undo, "undo the last file operation"), (.redo, "redo what was undone"),
        (.bulkRename, "rename the marked (or all) in $EDITOR"), (.newTab, "new tab here (1–9 switch)"), (.nextTab, "next tab"), (.previousTab, "previous tab"), (.closeTab, "close this tab"),
        (.help, "this help"), (.quit, "quit"),
    ]

    /// The help in columns fitted to `width`×`height` cells: two, or more when the keys would not
    /// fit the height otherwise; on a narrow screen the key column narrows and long descriptions
    /// end in "…"; on a short one the closing hints go first.
    static func lines(for keys: KeyMap, width: Int = 110, height: Int = 40) -> [String] {
        let entries = descriptions.compactMap { command, text -> (keys: String, text: String)? in
            let names = keys.keys(for: command).map(displayName)
            return names.isEmpty ? nil : (names.joined(separator: " "), text)
        }
        // Every key on screen: as many columns as the height needs.
        let rowsAvailable = max(1, height - 2)
        let columnCount = max(2, (entries.count + rowsAvailable - 1) / rowsAvailable)
        let column = min(54, max(20, (width - 2) / columnCount))
        let keyWidth = min(20, max(8, column - 30))
        let cells = entries.map { DisplayFormat.clip(DisplayFormat.pad(DisplayFormat.clip($0.keys, to: keyWidth - 1), to: keyWidth) + $0.text, to: column - 2) }
        let perColumn = (cells.count + columnCount - 1) / columnCount
        var lines = ["qlbrowse keys", ""]
        for row in 0..<perColumn {
            let parts = (0..<columnCount).compactMap { index in cells.indices.contains(row + index * perColumn) ? cells[row + index * perColumn] : nil }
            lines.append(parts.dropLast().map { DisplayFormat.pad($0, to: column) }.joined() + (parts.last ?? ""))
        }
        let hints = ["", "Esc closes or clears, Ctrl-C quits (always).", "Quick Look: ← → other files, ↓ ↑ PgDn PgUp g G inside one, 12 Enter jumps,",
                     "p plays and pauses, w wraps text, e edits (turn, mirror, trim), space or Esc closes.",
                     "Mouse: wheel scrolls, click selects.", "Keys can be changed in config.toml's [keys] table."]
        return lines + hints.prefix(max(0, height - lines.count))
    }

    private static func displayName(_ key: String) -> String {
        switch key {
        case "down": return "↓"
        case "up": return "↑"
        case "left": return "←"
        case "right": return "→"
        case "pgdn": return "PgDn"
        case "pgup": return "PgUp"
        case "home": return "Home"
        case "end": return "End"
        case "enter": return "Enter"
        case "backspace": return "Backspace"
        case "space": return "space"
        case "tab": return "Tab"
        default: return key.hasPrefix("ctrl-") ? "^" + key.dropFirst(5).uppercased() : key
        }
    }
}
