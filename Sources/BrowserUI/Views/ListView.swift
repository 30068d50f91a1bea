import BrowserCore
import SystemKit
import ThumbnailKit

/// The list: one entry per row with its mark, glyph, name, size and date; the preview pane to
/// its right when the screen is wide enough.
struct ListView {
    let context: ViewContext

    static let sizeWidth = 9

    func draw(_ state: BrowserState) {
        let layout = state.layout, screen = context.screen
        let width = layout.listWidth
        let sizeWidth = Self.sizeWidth, dateWidth = width >= 50 ? 17 : 0
        for index in state.visibleRange {
            let entry = state.entries[index]
            let row = layout.bodyTop + index - state.top
            let selected = index == state.cursor
            let base = selected ? context.style(.selection) : context.nameStyle(entry)
            screen.text("", row: row, column: 0, width: width, style: selected ? base : Theme.Style(), fill: true)
            if state.marked.contains(entry.nameBytes) { screen.text("+", row: row, column: 0, width: 1, style: context.style(.message)) }
            screen.text(EntryLook.glyph(entry.kind), row: row, column: 1, width: 2, style: selected ? base : context.style(EntryLook.part(entry.kind)))
            let name = (state.showExtensions ? entry.displayName : entry.displayNameWithoutExtension) + (entry.isDirectory ? "/" : "")
                + (state.liveMovie(of: entry) != nil ? " ◉LIVE" : context.store.motionPhotos.contains(entry.path(in: state.folder)) ? " ◉MOTION" : "")
            screen.text(name, row: row, column: 3, width: width - 3 - sizeWidth - dateWidth - 2, style: base, ellipsis: true)
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
