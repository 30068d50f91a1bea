import BrowserCore

/// The help overlay: every key, as the user's key map binds them, in a box; on a screen too small
/// for all of it, in pages turned with ↓ and ↑ (the last line says so).
struct HelpView {
    let context: ViewContext

    func draw(_ layout: ScreenLayout, page: Int) {
        let screen = context.screen
        let pages = HelpText.pages(for: context.keys, width: layout.columns - 6, height: layout.rows - 4)
        let count = max(1, pages.count)
        let lines = pages.isEmpty ? [] : pages[((page % count) + count) % count]
        let width = min(layout.columns - 2, (pages.flatMap { $0 }.map(\.count).max() ?? 40) + 4)
        let height = min(layout.rows - 2, (pages.map(\.count).max() ?? 0) + 2)
        let top = max(1, (layout.rows - height) / 2), left = max(1, (layout.columns - width) / 2)
        let style = context.style(.help)
        screen.fill(row: top, column: left, width: width, height: height, style: style)
        for (offset, line) in lines.prefix(height - 2).enumerated() {
            screen.text(line, row: top + 1 + offset, column: left + 2, width: width - 4, style: style, ellipsis: true)
        }
    }
}

/// The help overlay's lines, naming the keys as the user's key map binds them.
enum HelpText {
    private static let descriptions: [(Command, String)] = [
        (.move(.down), "move down"), (.move(.up), "move up"), (.move(.left), "parent folder (grid: left)"), (.move(.right), "open (grid: right)"),
        (.move(.parent), "parent folder"), (.move(.open), "open folder or file"), (.move(.top), "first"), (.move(.bottom), "last"),
        (.move(.pageDown), "page down"), (.move(.pageUp), "page up"), (.screen(.quickLook), "Quick Look"), (.list(.filter), "filter (Enter keeps, Esc clears)"),
        (.list(.view), "list / thumbnail grid"), (.list(.sort), "sort: name, size, time, kind"), (.list(.hidden), "hidden files"),
        (.list(.extensions), "extensions"), (.screen(.volumes), "volumes: disks, sticks, shares"),
        (.jobs(.batch), "thumbnail a folder in the background"), (.jobs(.jobs), "jobs panel"), (.jobs(.cancel), "cancel a job (jobs panel)"),
        (.files(.mark), "mark"), (.files(.invertMarks), "invert marks"), (.files(.unmark), "clear marks"), (.files(.copy), "copy marked (or this)"), (.files(.cut), "cut marked (or this)"),
        (.files(.paste), "paste here"), (.files(.rename), "rename"), (.files(.create), "new file, or folder with a trailing /"), (.files(.trash), "move to the trash"),
        (.files(.delete), "delete for good (asks)"), (.files(.restore), "restore what was last trashed"), (.screen(.redraw), "redraw the screen and pictures"),
        (.screen(.reload), "list this folder again"),
        (.places(.back), "back to the folder before"), (.places(.forward), "forward again"), (.places(.bookmark), "bookmark this folder (then a key)"),
        (.places(.jumpToBookmark), "go to a bookmark (then its key)"), (.places(.bookmarks), "bookmarks list (d deletes, r rekeys)"),
        (.places(.find), "find names below this folder"), (.files(.undo), "undo the last file operation"), (.files(.redo), "redo what was undone"),
        (.files(.bulkRename), "rename the marked (or all) in $EDITOR"), (.tabs(.newTab), "new tab here (1–9 switch)"), (.tabs(.nextTab), "next tab"), (.tabs(.previousTab), "previous tab"), (.tabs(.closeTab), "close this tab"),
        (.screen(.help), "this help"), (.screen(.quit), "quit"),
    ]

    /// The closing notes, after the keys; wrapped to the width.
    private static let notes = [
        "Esc closes or clears, Ctrl-C quits (always).",
        "Quick Look: ← → other files, ↓ ↑ PgDn PgUp g G inside one, 12 Enter jumps, p plays and pauses, w wraps text, e edits (turn, mirror, trim), space or Esc closes.",
        "Mouse: wheel scrolls, click selects.",
        "Keys can be changed in config.toml's [keys] table.",
    ]

    /// Every line of the help for a box `width` cells wide: the title, the keys in as many columns
    /// as fit without cutting a description (one at 80 columns, two at 120), the notes wrapped.
    static func lines(for keys: KeyMap, width: Int = 110) -> [String] {
        let entries = descriptions.compactMap { command, text -> (keys: String, text: String)? in
            let names = keys.keys(for: command).map(displayName)
            return names.isEmpty ? nil : (names.joined(separator: " "), text)
        }
        let keyWidth = min(16, (entries.map(\.keys.count).max() ?? 8) + 2)
        let cellWidth = keyWidth + (entries.map(\.text.count).max() ?? 30)
        let gap = 3
        let columnCount = max(1, min(3, (width + gap) / (cellWidth + gap)))
        let cells = entries.map { DisplayFormat.pad(DisplayFormat.clip($0.keys, to: keyWidth - 1), to: keyWidth) + $0.text }
        let perColumn = (cells.count + columnCount - 1) / columnCount
        var lines = ["qlbrowse keys", ""]
        for row in 0..<perColumn {
            let parts = (0..<columnCount).compactMap { index in cells.indices.contains(row + index * perColumn) ? cells[row + index * perColumn] : nil }
            lines.append(parts.dropLast().map { DisplayFormat.pad($0, to: cellWidth + gap) }.joined() + (parts.last ?? ""))
        }
        lines.append("")
        for note in notes { lines += wrap(note, to: max(20, min(width, columnCount * (cellWidth + gap) - gap))) }
        return lines
    }

    /// The help in pages of at most `height` lines for a box `width` wide: one page when it all
    /// fits; else each page repeats the title and ends with where it is and how to go on.
    static func pages(for keys: KeyMap, width: Int = 110, height: Int = 40) -> [[String]] {
        let all = lines(for: keys, width: width)
        guard all.count > height, height >= 4 else { return [all] }
        // One line short: the blank under the title goes rather than a second page.
        if all.count == height + 1 { return [[all[0]] + all.dropFirst(2)] }
        let body = Array(all.dropFirst(2))
        let perPage = height - 3  // the title, a blank line, …, the page line
        let count = (body.count + perPage - 1) / perPage
        return (0..<count).map { index in
            let slice = Array(body[(index * perPage)..<min(body.count, (index + 1) * perPage)])
            let padding = [String](repeating: "", count: perPage - slice.count)
            let more = index + 1 < count ? "↓ more" : "↓ first page"
            return ["qlbrowse keys (\(index + 1)/\(count))", ""] + slice + padding + ["— \(more), ↑ back, Esc closes —"]
        }
    }

    /// `text` in lines of at most `width` characters, broken at spaces.
    static func wrap(_ text: String, to width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { DisplayFormat.clip($0, to: width) }
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
