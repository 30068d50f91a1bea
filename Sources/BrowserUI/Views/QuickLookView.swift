import BrowserCore
import SystemKit
import ThumbnailKit

/// Quick Look: the selected entry over the whole screen (its picture, or a text file's first
/// lines), with its facts and the keys at the bottom.
struct QuickLookView {
    let context: ViewContext

    func draw(_ state: BrowserState) {
        let layout = state.layout, screen = context.screen
        guard let entry = state.selected, let path = state.selectedPath,
              let slot = PictureSlots(state: state, cell: context.drawer.cell).quickLook(state.cursor) else { return }
        screen.fill(row: 0, column: 0, width: layout.columns, height: layout.rows, style: Theme.Style())
        screen.text(" \(entry.displayName)   \(state.cursor + 1)/\(state.entries.count)", row: 0, column: 0, width: layout.columns,
                    style: context.style(.header), fill: true)
        if entry.kind == .text, !entry.isDirectory {
            for (offset, line) in (context.store.text(for: path) ?? ["reading…"]).prefix(slot.rect.rows).enumerated() {
                screen.text(line, row: 1 + offset, column: 1, width: layout.columns - 2, style: context.style(.text))
            }
        } else {
            context.drawPicture(slot)
        }
        let picture = context.store.pictures[slot.key]
        var info = "\(picture?.contentType.identifier ?? entry.kind.rawValue)  \(DisplayFormat.bytes(Int64(entry.size)))  \(DisplayFormat.date(entry.modified))"
        if let picture, picture.type != .icon { info += "  from \(picture.source)" }
        for fact in picture?.facts ?? [] { info += "  \(fact.label) \(TerminalText.escaped(fact.value))" }
        if let failure = context.store.failures[slot.key] { info += "  " + TerminalText.escaped(failure) }
        screen.text(" " + info, row: layout.rows - 2, column: 0, width: layout.columns, style: context.style(.status), fill: true)
        screen.text(" ←/→ previous/next   space/Esc close", row: layout.rows - 1, column: 0, width: layout.columns, style: context.style(.hidden), fill: true)
    }
}
