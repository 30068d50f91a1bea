import BrowserCore
import SystemKit

/// An archive in Quick Look: a summary line (format, members, total size, any warning), then its
/// members as a tree with sizes and dates, scrolled like text.
struct QuickLookMembersView {
    let context: ViewContext

    func draw(_ page: MembersPage?, position: QuickLookPosition, top: Int, rows: Int, columns: Int) {
        let screen = context.screen
        guard let page, page.problem == nil else {
            screen.text(page?.problem ?? "listing…", row: top, column: 1, width: columns - 2, style: context.style(page == nil ? .hidden : .error))
            return
        }
        var summary = "\(page.format.map { $0 + "  " } ?? "")\(page.memberCount) members  \(DisplayFormat.bytes(page.totalBytes)) unpacked"
        if let note = page.note { summary += "  · " + note }
        screen.text(summary, row: top, column: 1, width: columns - 2, style: context.style(page.note == nil ? .hidden : .message), ellipsis: true)
        let dateWidth = columns >= 70 ? 17 : 0, sizeWidth = 10
        for (offset, row) in page.rows.dropFirst(position.line).prefix(rows - 1).enumerated() {
            let y = top + 1 + offset
            let name = String(repeating: "  ", count: row.depth) + (row.isDirectory ? "▸ " + row.name + "/" : "  " + row.name) + (row.isSymlink ? " →" : "")
            let nameWidth = columns - 2 - sizeWidth - dateWidth - 1
            screen.text(name, row: y, column: 1, width: nameWidth, style: context.style(row.isDirectory ? .folder : .file), ellipsis: true)
            if !row.isDirectory {
                let size = DisplayFormat.bytes(row.size)
                screen.text(String(repeating: " ", count: max(0, sizeWidth - size.count)) + size, row: y, column: 1 + nameWidth, width: sizeWidth, style: context.style(.size))
            }
            if dateWidth > 0, let modified = row.modified {
                screen.text(DisplayFormat.date(Int(modified)), row: y, column: columns - dateWidth, width: dateWidth - 1, style: context.style(.date))
            }
        }
    }
}
