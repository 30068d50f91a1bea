import BrowserCore
import SystemKit
import TerminalGraphics
import ThumbnailKit

/// The pane beside the list: the selected entry's picture, then its name, type, size, date and
/// what the decoder found (dimensions, camera, duration…).
struct PreviewPaneView {
    let context: ViewContext

    func draw(_ state: BrowserState) {
        let layout = state.layout, screen = context.screen
        guard let entry = state.selected, let slot = PictureSlots(state: state, cell: context.drawer.cell).preview(state.cursor) else { return }
        context.drawPicture(slot)
        let left = slot.rect.column, width = slot.rect.columns, last = layout.bodyTop + layout.bodyRows - 1
        var row = slot.rect.row + slot.rect.rows + 1
        func line(_ text: String, _ part: Theme.Part = .text, ellipsis: Bool = false) {
            screen.text(text, row: row, column: left, width: width, style: context.style(part), ellipsis: ellipsis)
            row += 1
        }
        line(entry.displayName, .title, ellipsis: true)
        let representation = context.store.pictures[slot.key]
        let type = representation?.contentType.identifier
            ?? (entry.isDirectory ? "folder" : ContentTypeTable.type(forFileName: entry.name)?.identifier ?? entry.kind.rawValue)
        line(type + (entry.isSymbolicLink ? "  (link)" : ""))
        if !entry.isDirectory { line("\(DisplayFormat.bytes(Int64(entry.size)))  (\(entry.size) bytes)") }
        line("modified " + DisplayFormat.date(entry.modified))
        for fact in representation?.facts ?? [] where row < last { line("\(fact.label) \(TerminalText.escaped(fact.value))") }
        if let failure = context.store.failures[slot.key] {
            line(TerminalText.escaped(failure), .error)
        } else if let representation, representation.type != .icon {
            let quality = representation.type == .thumbnail ? "" : " (preview)"
            line("picture \(representation.image.width)×\(representation.image.height) from \(representation.source)\(quality)", .hidden)
        }
    }
}
