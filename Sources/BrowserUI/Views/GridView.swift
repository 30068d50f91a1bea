import BrowserCore

/// The thumbnail grid: a tile per entry, its picture above its name.
struct GridView {
    let context: ViewContext

    func draw(_ state: BrowserState) {
        let layout = state.layout, screen = context.screen
        let slots = PictureSlots(state: state, cell: context.drawer.cell)
        for index in state.visibleRange {
            let entry = state.entries[index]
            let origin = layout.tileOrigin(index: index, firstRow: state.top)
            context.drawPicture(slots.tile(index))
            let selected = index == state.cursor
            let moves = state.liveMovie(of: entry) != nil || context.store.motionPhotos.contains(entry.path(in: state.folder))
            let name = (moves ? "◉ " : "") + (state.showExtensions ? entry.displayName : entry.displayNameWithoutExtension)
            let clipped = DisplayFormat.elideMiddle(name, to: layout.tileWidth - 2)
            let pad = max(0, (layout.tileWidth - 2 - clipped.count) / 2)
            let style = selected ? context.style(.selection) : context.nameStyle(entry)
            let nameRow = origin.row + layout.tileHeight - 2
            if selected { screen.text("", row: nameRow, column: origin.column, width: layout.tileWidth - 1, style: style, fill: true) }
            screen.text(clipped, row: nameRow, column: origin.column + 1 + pad, width: layout.tileWidth - 2, style: style)
        }
        if state.entries.isEmpty {
            screen.text(state.listingError ?? (state.listingComplete ? "(empty folder)" : "reading…"), row: layout.bodyTop, column: 2,
                        width: layout.columns - 2, style: context.style(.hidden))
        }
    }
}
