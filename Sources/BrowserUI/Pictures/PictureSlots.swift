import BrowserCore
import TerminalGraphics

/// Where pictures go on the screen the state shows, and which are fetched ahead: one place for
/// the geometry the drawing and the fetching share.
struct PictureSlots {
    /// A picture's place: the key of the picture and the cells it may use.
    struct Slot: Equatable {
        let key: PictureKey
        let rect: CellRect
    }

    let state: BrowserState
    let cell: CellSize

    /// Rows under the preview picture for the name, type, size, date and the decoder's facts.
    static func infoRows(_ layout: ScreenLayout) -> Int { min(11, max(5, layout.bodyRows / 3)) }

    /// Quick Look's picture of the entry at `index` (the whole screen but the header and two lines).
    func quickLook(_ index: Int) -> Slot? {
        let layout = state.layout
        return slot(index, CellRect(row: 1, column: 0, rows: layout.rows - 3, columns: layout.columns))
    }

    /// The preview pane's picture of the entry at `index` (above its facts).
    func preview(_ index: Int) -> Slot? {
        let layout = state.layout
        guard layout.hasPreview else { return nil }
        let rows = max(1, layout.bodyRows - Self.infoRows(layout))
        return slot(index, CellRect(row: layout.bodyTop, column: layout.previewLeft + 1, rows: rows, columns: layout.previewWidth - 2))
    }

    /// The grid tile's picture of the entry at `index` (above its name).
    func tile(_ index: Int) -> Slot? {
        let layout = state.layout
        let origin = layout.tileOrigin(index: index, firstRow: state.top)
        return slot(index, CellRect(row: origin.row, column: origin.column + 1, rows: layout.tileHeight - 2, columns: layout.tileWidth - 2))
    }

    /// The pictures the current screen needs, nearest first, and its neighbours fetched ahead.
    var wanted: [PictureKey] {
        let cursor = state.cursor
        if state.overlay == .quickLook { return [0, 1, -1].compactMap { quickLook(cursor + $0)?.key } }
        if state.view == .grid {
            let range = state.visibleRange
            let ahead = range.upperBound..<(range.upperBound + state.layout.gridColumns * 2)
            return (Array(range) + Array(ahead)).compactMap { tile($0)?.key }
        }
        return [0, 1, -1, 2].compactMap { preview(cursor + $0)?.key }
    }

    private func slot(_ index: Int, _ rect: CellRect) -> Slot? {
        guard state.entries.indices.contains(index), rect.rows > 0, rect.columns > 0 else { return nil }
        let side = cell.thumbnailSide(columns: rect.columns, rows: rect.rows)
        return Slot(key: .of(state.entries[index], in: state.folder, side: side), rect: rect)
    }
}
