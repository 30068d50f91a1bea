import BrowserCore
import TerminalGraphics
import ThumbnailKit
import SystemKit

/// Where pictures go on the screen the state shows, and which are fetched ahead: one place for
/// the geometry the drawing and the fetching share.
struct PictureSlots {
    /// A picture's place: the key of the picture and the cells it may use, and how an edit
    /// under way turns it.
    struct Slot: Equatable {
        let key: PictureKey
        let rect: CellRect
        var turn = QuickEdit.Turn.none
        /// Drawn over the picture: the crop's rectangle, or Markup's marks on the page shown.
        var overlay: PictureOverlay?
    }

    let state: BrowserState
    let cell: CellSize

    /// Rows under the preview picture for the name, type, size, date and the decoder's facts.
    static func infoRows(_ layout: ScreenLayout) -> Int { min(11, max(5, layout.bodyRows / 3)) }

    /// Quick Look's area: the whole screen but the header and the two lines at the bottom.
    var quickLookArea: CellRect { CellRect(row: 1, column: 0, rows: state.layout.rows - 3, columns: state.layout.columns) }

    /// Quick Look's picture of the entry at `index`: its page or frame where it is the selected
    /// entry (its first one otherwise); a time line leaves room below for the position bar and,
    /// for a video, the storyboard.
    func quickLook(_ index: Int) -> Slot? {
        guard state.entries.indices.contains(index) else { return nil }
        let entry = state.entries[index]
        let position = index == state.cursor ? state.quickLook : QuickLookPosition()
        var rect = quickLookArea
        let part: PictureKey.Part
        switch QuickLookContent.shown(entry, at: position) {
        case .picture where position.custom == .picture: part = .custom
        case .picture where position.zoom > 1:
            part = .region(zoom: position.zoom, x: Int(position.centerX * 1000), y: Int(position.centerY * 1000))
        case .pages: part = .page(position.page)
        case .timeline where entry.kind == .video:
            part = .frame(milliseconds: Self.frameTime(position.seconds))
            rect.rows -= 1 + storyboardRows
        case .timeline where entry.kind == .image:
            part = .frame(milliseconds: Self.frameTime(position.seconds))
            rect.rows -= 1
            // A Live Photo's motion: the frames are its movie's.
            if position.showsMotion, let movie = state.liveMovie(of: entry) {
                guard var found = slot(index, rect, part: part, playing: position.playing) else { return nil }
                found = Slot(key: PictureKey(path: BrowserState.join(state.folder, movie), side: found.key.side, iconOnly: false, part: part, box: found.key.box),
                             rect: found.rect)
                return found
            }
        case .timeline: part = .whole; rect.rows -= 1
        default: part = .whole
        }
        guard var found = slot(index, rect, part: part, playing: position.playing) else { return nil }
        if let edit = position.edit {
            found.turn = edit.shownTurn(page: position.page)
            found.overlay = edit.crop.map { .rectangle(RectangleOverlay(rect: $0.rect, size: $0.size)) }
            if let markup = edit.markup, let canvas = state.markupCanvas, canvas.page == position.page {
                let marks = markup.shown(page: canvas.page)
                if !marks.isEmpty { found.overlay = .marks(MarkOverlay(marks: marks, canvas: canvas.size, onPage: entry.kind == .pdf)) }
            }
        }
        return found
    }

    /// Frames are asked for in twentieths of a second: up to twenty a second while playing (the
    /// terminal and the encoder set the real rate, one frame at a time), and a frame seen before
    /// is found again.
    static func frameTime(_ seconds: Double) -> Int { Int(saturating: min(max(0, seconds), 1e12) * 20) * 50 }

    /// Rows of the storyboard under a video in Quick Look.
    var storyboardRows: Int { max(3, min(8, quickLookArea.rows / 4)) }

    /// Frames across the whole selected video, under its picture, once its length is known.
    var storyboard: [Slot] {
        guard state.overlay == .quickLook, let entry = state.selected, entry.kind == .video, let duration = state.quickLook.duration, duration > 0 else { return [] }
        let area = quickLookArea, rows = storyboardRows
        let count = max(1, min(10, area.columns / 14)), width = area.columns / count
        return (0..<count).compactMap { index in
            let milliseconds = Int(saturating: (Double(index) + 0.5) / Double(count) * duration * 1000)
            let rect = CellRect(row: area.row + area.rows - rows, column: index * width + 1, rows: rows, columns: width - 2)
            return slot(state.cursor, rect, part: .frame(milliseconds: milliseconds))
        }
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
        if state.overlay == .quickLook {
            guard let current = quickLook(cursor)?.key else { return [] }
            // The page after (and before) the one shown is rendered ahead, so paging feels instant.
            var keys = [current, current.whole]
            if case .page(let page) = current.part {
                keys += [page + 1, page - 1].filter { $0 >= 0 && $0 < (state.quickLook.pageCount ?? .max) }
                    .map { PictureKey(path: current.path, side: current.side, iconOnly: false, part: .page($0), box: current.box) }
            }
            return keys + storyboard.map(\.key) + [1, -1].compactMap { quickLook(cursor + $0)?.key }
        }
        if state.view == .grid {
            let range = state.visibleRange
            let ahead = range.upperBound..<(range.upperBound + state.layout.gridColumns * 2)
            return (Array(range) + Array(ahead)).compactMap { tile($0)?.key }
        }
        return [0, 1, -1, 2].compactMap { preview(cursor + $0)?.key }
    }

    private func slot(_ index: Int, _ rect: CellRect, part: PictureKey.Part = .whole, playing: Bool = false) -> Slot? {
        guard state.entries.indices.contains(index), rect.rows > 0, rect.columns > 0 else { return nil }
        // Thumbnails come in the cache's size classes; pages and frames are made sharp for the cells' box.
        var key = PictureKey.of(state.entries[index], in: state.folder, side: cell.thumbnailSide(columns: rect.columns, rows: rect.rows), part: part)
        if part != .whole {
            // While playing, frames come at half the size: ten a second matter more than sharpness.
            let scale = playing && key.isFrame ? 2 : 1
            key.box = PixelSize(width: rect.columns * cell.width / scale, height: rect.rows * cell.height / scale)
        }
        return Slot(key: key, rect: rect)
    }
}

extension QuickEdit.Turn {
    /// The picture as the edit shows it.
    func applied(to image: PixelImage) -> PixelImage {
        (mirrored ? image.mirrored() : image).rotatedClockwise(quarterTurns: quarterTurns)
    }
}
