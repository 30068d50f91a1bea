import CChafa
import ThumbnailKit

/// Turns pictures into something a terminal shows, through chafa: cells of block characters with
/// 256-colour indices (drawn by the UI through ncurses), or a sixel/kitty/iTerm2 escape sequence.
public enum ChafaEncoder {
    /// One character cell of symbol art.
    public struct Cell: Sendable, Equatable {
        public let character: UInt32
        /// Colour indices (16…255), or -1 for the terminal's default.
        public let foreground: Int32
        public let background: Int32
    }

    /// A picture as a grid of cells.
    public struct SymbolArt: Sendable, Equatable {
        public let columns: Int
        public let rows: Int
        public let cells: [Cell]
    }

    /// The cell rectangle a picture occupies when fitted into `columns`×`rows` cells of `cell` pixels.
    public static func fittedCells(for size: PixelSize, columns: Int, rows: Int, cell: (width: Int, height: Int)) -> (columns: Int, rows: Int) {
        let box = PixelSize(width: columns * cell.width, height: rows * cell.height)
        let fitted = ThumbnailGeometry.fit(size, in: box, upscale: true)
        return (max(1, min(columns, (fitted.width + cell.width - 1) / cell.width)), max(1, min(rows, (fitted.height + cell.height - 1) / cell.height)))
    }

    /// Block-character art of `image` fitted into `columns`×`rows` cells.
    public static func symbols(_ image: PixelImage, columns: Int, rows: Int, cell: (width: Int, height: Int), colors: Int) -> SymbolArt {
        let (width, height) = fittedCells(for: image.size, columns: columns, rows: rows, cell: cell)
        guard let config = chafa_canvas_config_new() else { return SymbolArt(columns: 0, rows: 0, cells: []) }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(width), Int32(height))
        chafa_canvas_config_set_cell_geometry(config, Int32(cell.width), Int32(cell.height))
        chafa_canvas_config_set_canvas_mode(config, colors >= 256 ? CHAFA_CANVAS_MODE_INDEXED_240 : colors >= 16 ? CHAFA_CANVAS_MODE_INDEXED_16 : CHAFA_CANVAS_MODE_INDEXED_8)
        chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
        let map = chafa_symbol_map_new()
        defer { chafa_symbol_map_unref(map) }
        chafa_symbol_map_add_by_tags(map, ChafaSymbolTags(rawValue: CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue))
        chafa_symbol_map_remove_by_tags(map, CHAFA_SYMBOL_TAG_INVERTED)
        chafa_canvas_config_set_symbol_map(config, map)
        guard let canvas = chafa_canvas_new(config) else { return SymbolArt(columns: 0, rows: 0, cells: []) }
        defer { chafa_canvas_unref(canvas) }
        image.pixels.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4))
        }
        var cells: [Cell] = []
        cells.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                var foreground: Int32 = -1, background: Int32 = -1
                chafa_canvas_get_colors_at(canvas, Int32(x), Int32(y), &foreground, &background)
                cells.append(Cell(character: chafa_canvas_get_char_at(canvas, Int32(x), Int32(y)), foreground: foreground, background: background))
            }
        }
        return SymbolArt(columns: width, rows: height, cells: cells)
    }

    /// The escape sequence that draws `image` in `mode` over `columns`×`rows` cells, and the cells it covers.
    public static func sequence(_ image: PixelImage, mode: GraphicsMode, columns: Int, rows: Int, cell: (width: Int, height: Int)) -> (bytes: [UInt8], columns: Int, rows: Int) {
        let (width, height) = fittedCells(for: image.size, columns: columns, rows: rows, cell: cell)
        guard let config = chafa_canvas_config_new() else { return ([], 0, 0) }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(width), Int32(height))
        chafa_canvas_config_set_cell_geometry(config, Int32(cell.width), Int32(cell.height))
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        let pixelMode: ChafaPixelMode = mode == .kitty ? CHAFA_PIXEL_MODE_KITTY : mode == .iterm ? CHAFA_PIXEL_MODE_ITERM2 : CHAFA_PIXEL_MODE_SIXELS
        chafa_canvas_config_set_pixel_mode(config, pixelMode)
        guard let canvas = chafa_canvas_new(config) else { return ([], 0, 0) }
        defer { chafa_canvas_unref(canvas) }
        image.pixels.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4))
        }
        guard let info = chafa_term_db_get_fallback_info(chafa_term_db_get_default()) else { return ([], 0, 0) }
        defer { chafa_term_info_unref(info) }
        guard let printed = chafa_canvas_print(canvas, info) else { return ([], 0, 0) }
        defer { CChafa_gstring_free(printed) }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: CChafa_gstring_text(printed), count: Int(CChafa_gstring_length(printed))))
        return (bytes, width, height)
    }
}
