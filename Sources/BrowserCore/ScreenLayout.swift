/// Where things go on the screen, from its size in cells: the list and preview panes, the grid of
/// tiles. Pure arithmetic, so it is unit-tested and the same for drawing and for mouse clicks.
public struct ScreenLayout: Sendable, Equatable {
    public var rows: Int
    public var columns: Int

    /// The smallest grid tile in cells (picture plus one line for the name). Tiles grow to share
    /// out what is left, so the grid fills the screen (at 80x24: 4 by 2 tiles of 20x11).
    public static let minimumTileWidth = 18
    public static let minimumTileHeight = 9

    /// The preview pane's share of the width, in percent (config.toml's `preview_width`).
    public var previewPercent: Int

    public init(rows: Int = 24, columns: Int = 80, previewPercent: Int = 55) {
        self.rows = max(rows, 3)
        self.columns = max(columns, 10)
        self.previewPercent = min(max(previewPercent, 20), 80)
    }

    /// The same layout on a screen of another size.
    public func resized(rows: Int, columns: Int) -> ScreenLayout {
        ScreenLayout(rows: rows, columns: columns, previewPercent: previewPercent)
    }

    /// Rows between the header and the status line.
    public var bodyRows: Int { max(1, rows - 2) }
    public var bodyTop: Int { 1 }

    /// The preview pane shows only when there is room for it.
    public var hasPreview: Bool { columns >= 60 }
    public var listWidth: Int { hasPreview ? min(columns - 20, max(30, columns * (100 - previewPercent) / 100)) : columns }
    public var previewLeft: Int { listWidth + 1 }
    public var previewWidth: Int { hasPreview ? columns - listWidth - 1 : 0 }

    public var gridColumns: Int { max(1, columns / Self.minimumTileWidth) }
    public var gridRows: Int { max(1, bodyRows / Self.minimumTileHeight) }
    /// The size of a tile on this screen.
    public var tileWidth: Int { max(Self.minimumTileWidth, columns / gridColumns) }
    public var tileHeight: Int { max(Self.minimumTileHeight, bodyRows / gridRows) }

    /// How many entries one screen shows in a view.
    public func pageSize(_ view: ViewMode) -> Int { view == .list ? bodyRows : gridColumns * gridRows }

    /// The grid tile's top-left cell for an entry at `index`, given the first visible grid row.
    public func tileOrigin(index: Int, firstRow: Int) -> (row: Int, column: Int) {
        let row = index / gridColumns - firstRow
        return (bodyTop + row * tileHeight, (index % gridColumns) * tileWidth)
    }
}
