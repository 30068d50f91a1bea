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
        screen.text(" " + Self.footer(Self.keys(content), extras: members, width: layout.columns - 1), row: layout.rows - 1, column: 0,
                    width: layout.columns, style: context.style(.hidden), fill: true)
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

    /// The keys that work on this kind of file, most needed first (closing, other files, then
    /// what moves inside this one); `footer` drops from the end what does not fit.
    static func keys(_ content: QuickLookContent) -> [String] {
        let common = ["space/Esc close", "←/→ previous/next"]
        switch content {
        case .pages: return common + ["↓/↑ PgDn/PgUp page", "g/G first/last", "12 Enter page 12"]
        case .text: return common + ["↓/↑ line", "PgDn/PgUp screen", "w wrap", "g/G first/last", "12 Enter line 12"]
        case .members: return common + ["↓/↑ PgDn/PgUp scroll", "g/G first/last"]
        case .timeline: return common + ["p play/pause", "↓/↑ 5 s", "PgDn/PgUp a tenth", "g/G start/end", "90 Enter 1:30"]
        case .picture: return common
        }
    }

    /// The footer in `width` characters: the hints in order of need (closing, other files, the
    /// first key inside the file, the file's own `extras` — m, zoom, e, p — then the other keys),
    /// shown with closing last where the eye ends; three spaces apart when all fit, else two, the
    /// least needed dropped until the rest fits.
    static func footer(_ keys: [String], extras: String, width: Int) -> String {
        let own = extras.components(separatedBy: "   ").filter { !$0.isEmpty }
        let items = Array(keys.prefix(3)) + own + Array(keys.dropFirst(3))
        func shown(_ items: [String], _ separator: String) -> String {
            (Array(items.dropFirst(2)) + items.prefix(2).reversed()).joined(separator: separator)
        }
        if shown(items, "   ").count <= width { return shown(items, "   ") }
        var kept = items
        while kept.count > 1, shown(kept, "  ").count > width { kept.removeLast() }
        return shown(kept, "  ")
    }
}
