import BrowserCore
import SystemKit
import ThumbnailKit

/// Quick Look: the selected entry over the whole screen — a document's page, a text's lines, a
/// picture — with where it is in the file in the header, its facts and the keys at the bottom.
struct QuickLookView {
    let context: ViewContext

    func draw(_ state: BrowserState) {
        let layout = state.layout, screen = context.screen
        guard let entry = state.selected, let path = state.selectedPath, let content = state.quickLookContent,
              case let slots = PictureSlots(state: state, cell: context.drawer.cell), let slot = slots.quickLook(state.cursor) else { return }
        let position = state.quickLook
        screen.fill(row: 0, column: 0, width: layout.columns, height: layout.rows, style: Theme.Style())
        var lastLine: Int?
        switch content {
        case .text:
            lastLine = QuickLookTextView(context: context).draw(context.store.text(for: path), position: position, top: 1, rows: slot.rect.rows, columns: layout.columns)
        case .members:
            QuickLookMembersView(context: context).draw(context.store.members(for: path), position: position, top: 1, rows: slot.rect.rows, columns: layout.columns)
        case .timeline:
            context.drawPicture(slot, latestFrame: true)
            QuickLookTimelineView(context: context).draw(state, slots: slots, barRow: slot.rect.row + slot.rect.rows)
        case .pages, .picture:
            context.drawPicture(slot)
        }
        var title = " \(entry.displayName)   \(state.cursor + 1)/\(state.entries.count)"
        // A document that cannot be read (encrypted, damaged) has no page to count.
        let unreadable = context.store.failures[slot.key] != nil
        if !unreadable, let place = Self.place(content, position, page: context.store.text(for: path), lastLine: lastLine) { title += "   " + place }
        if !position.jump.isEmpty { title += "   go to \(position.jump)…" }
        if position.zoom > 1 { title += "   zoom \(position.zoom)×" }
        if let edit = position.edit { title += "   editing: " + edit.summary(duration: position.duration) }
        screen.text(title, row: 0, column: 0, width: layout.columns, style: context.style(.header), fill: true)
        // The file's type and facts come with its thumbnail, whatever part is shown.
        let picture = context.store.pictures[slot.key.whole] ?? context.store.pictures[slot.key]
        var info = "\(picture?.contentType.identifier ?? entry.kind.rawValue)  \(DisplayFormat.bytes(Int64(entry.size)))  \(DisplayFormat.date(entry.modified))"
        if let picture, picture.type != .icon { info += "  from \(picture.source)" }
        for fact in picture?.facts ?? [] { info += "  \(fact.label) \(TerminalText.escaped(fact.value))" }
        if let failure = context.store.failures[slot.key] ?? context.store.failures[slot.key.whole] { info += "  " + TerminalText.escaped(failure) }
        // A message (an edit saved, a key that does nothing here) stands in for the facts until the next key.
        if let message = state.message { info = TerminalText.escaped(message) }
        screen.text(" " + info, row: layout.rows - 2, column: 0, width: layout.columns, style: context.style(state.message == nil ? .status : .message), fill: true)
        if let edit = position.edit {
            let style = context.style(edit.step == .choosing ? .hidden : .header)
            screen.text(" " + QuickEditKeys.footer(edit, name: entry.displayName), row: layout.rows - 1, column: 0, width: layout.columns, style: style, fill: true)
            return
        }
        var members = QuickLookContent.isContainer(entry.name) ? (content == .members ? "m picture   " : "m members   ") : ""
        if state.canZoom { members += position.zoom > 1 ? "+/- zoom   hjkl move   " : "+ zoom in   " }
        if QuickEdit.target(for: entry, showing: content) != nil, position.custom == nil { members += "e edit   " }
        if content == .picture, state.hasMotion { members += state.liveMovie(of: entry) != nil ? "p plays the Live Photo   " : "p plays the Motion Photo   " }
        screen.text(" " + members + Self.keys(content), row: layout.rows - 1, column: 0, width: layout.columns, style: context.style(.hidden), fill: true)
    }

    /// Where Quick Look is in the file, for the header: "page 4/1008", "lines 120–162 of 2,000".
    static func place(_ content: QuickLookContent, _ position: QuickLookPosition, page: TextPage?, lastLine: Int?) -> String? {
        switch content {
        case .pages: return "page \(position.page + 1)/" + (position.pageCount.map(String.init) ?? "?")
        case .timeline: return DisplayFormat.clock(position.seconds) + (position.duration.map { " / " + DisplayFormat.clock($0) } ?? "")
        case .text:
            guard let page, let lastLine else { return nil }
            let total = position.lineCount ?? page.total
            return "lines \(position.line + 1)–\(lastLine + 1)" + (total.map { " of \($0)" } ?? "")
        default: return nil
        }
    }

    /// The keys that work on this kind of file.
    static func keys(_ content: QuickLookContent) -> String {
        let common = "←/→ previous/next   space/Esc close"
        switch content {
        case .pages: return "↓/↑ PgDn/PgUp page   g/G first/last   12 Enter page 12   " + common
        case .text: return "↓/↑ line   PgDn/PgUp screen   g/G first/last   12 Enter line 12   w wrap   " + common
        case .members: return "↓/↑ PgDn/PgUp scroll   g/G first/last   " + common
        case .timeline: return "p play/pause   ↓/↑ 5 s   PgDn/PgUp a tenth   g/G start/end   90 Enter 1:30   " + common
        case .picture: return common
        }
    }
}
