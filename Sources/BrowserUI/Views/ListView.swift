import BrowserCore
import FileSystemKit
import SystemKit
import ThumbnailKit

/// The list: one entry per row with its mark, glyph, name, size and date; the preview pane to
/// its right when the screen is wide enough.
struct ListView {
    let context: ViewContext

    static let sizeWidth = 9

    /// The name as the list shows it: extension per the toggle, "/" for a folder, and a badge.
    private func shownName(_ entry: Entry, _ state: BrowserState) -> (name: String, suffix: String) {
        let name = state.showExtensions ? entry.displayName : entry.displayNameWithoutExtension
        let suffix = (entry.isDirectory ? "/" : "")
            + (state.liveMovie(of: entry) != nil ? " ◉LIVE" : context.store.motionPhotos.contains(entry.path(in: state.folder)) ? " ◉MOTION" : "")
        return (name, suffix)
    }

    /// The date column's width (with its gap): names come first, so the date goes when a name on
    /// screen would not fit beside it (the preview pane shows the selected entry's date).
    static func dateWidth(listWidth width: Int, longestName: Int) -> Int {
        width >= 50 && longestName <= width - 3 - sizeWidth - 17 - 2 ? 17 : 0
    }

    func draw(_ state: BrowserState) {
        let layout = state.layout, screen = context.screen
        let width = layout.listWidth
        let names = state.visibleRange.map { shownName(state.entries[$0], state) }
        let sizeWidth = Self.sizeWidth
        let dateWidth = Self.dateWidth(listWidth: width, longestName: names.map { $0.name.count + $0.suffix.count }.max() ?? 0)
        let nameWidth = width - 3 - sizeWidth - dateWidth - 2
        for (index, shown) in zip(state.visibleRange, names) {
            let entry = state.entries[index]
            let row = layout.bodyTop + index - state.top
            let selected = index == state.cursor
            let base = selected ? context.style(.selection) : context.nameStyle(entry)
            screen.text("", row: row, column: 0, width: width, style: selected ? base : Theme.Style(), fill: true)
            if state.marked.contains(entry.nameBytes) { screen.text("+", row: row, column: 0, width: 1, style: context.style(.message)) }
            screen.text(EntryLook.glyph(entry.kind), row: row, column: 1, width: 2, style: selected ? base : context.style(EntryLook.part(entry.kind)))
            let name = DisplayFormat.elideMiddle(shown.name, to: max(1, nameWidth - shown.suffix.count)) + shown.suffix
            screen.text(name, row: row, column: 3, width: nameWidth, style: base, ellipsis: true)
            let size = entry.isDirectory ? "" : DisplayFormat.bytes(Int64(entry.size))
            screen.text(String(repeating: " ", count: max(0, sizeWidth - size.count)) + size, row: row, column: width - sizeWidth - dateWidth - 1,
                        width: sizeWidth, style: selected ? base : context.style(.size))
            if dateWidth > 0 {
                screen.text(DisplayFormat.date(entry.modified), row: row, column: width - dateWidth, width: dateWidth - 1,
                            style: selected ? base : context.style(.date))
            }
        }
        if state.entries.isEmpty {
            let text = state.listingError ?? (state.listingComplete ? (state.filter.isEmpty ? "(empty folder)" : "(nothing matches)") : "reading…")
            screen.text(text, row: layout.bodyTop, column: 2, width: width - 2, style: context.style(state.listingError == nil ? .hidden : .error))
        }
        if layout.hasPreview {
            for row in layout.bodyTop..<(layout.bodyTop + layout.bodyRows) {
                screen.text("│", row: row, column: layout.listWidth, width: 1, style: context.style(.border))
            }
            PreviewPaneView(context: context).draw(state)
        }
    }
}
