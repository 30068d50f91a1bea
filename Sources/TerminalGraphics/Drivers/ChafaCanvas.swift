internal import CChafa
import ThumbnailKit

/// A chafa canvas holding one picture fitted into a cell rectangle: the part of chafa the
/// chafa-based drivers (block art, sixel) share.
final class ChafaCanvas {
    /// How a canvas turns pixels into cells or pixels.
    enum Kind {
        /// Block and border characters; `colors` is 8, 16, 256 or 16,777,216 (truecolor); `work`
        /// is chafa's work factor (0…1).
        case symbols(colors: Int, work: Double)
        case sixel
    }

    let columns: Int
    let rows: Int
    let kind: Kind
    private let canvas: OpaquePointer?

    /// Draws `image` into a canvas of the cells it takes when fitted into `columns`×`rows`.
    init(_ image: PixelImage, columns: Int, rows: Int, cell: CellSize, kind: Kind) {
        let fitted = cell.fit(image.size, columns: columns, rows: rows)
        self.columns = fitted.columns
        self.rows = fitted.rows
        self.kind = kind
        guard image.width > 0, image.height > 0, let config = chafa_canvas_config_new() else {
            canvas = nil
            return
        }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(fitted.columns), Int32(fitted.rows))
        chafa_canvas_config_set_cell_geometry(config, Int32(cell.width), Int32(cell.height))
        switch kind {
        case .symbols(let colors, let work):
            chafa_canvas_config_set_canvas_mode(config, Self.canvasMode(colors: colors))
            chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
            // chafa's own default for its command line (block+border+space, no inverted
            // symbols), with the effort the driver was made with.
            let map = chafa_symbol_map_new()
            chafa_symbol_map_add_by_tags(map, ChafaSymbolTags(rawValue: CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue))
            chafa_symbol_map_remove_by_tags(map, CHAFA_SYMBOL_TAG_INVERTED)
            chafa_canvas_config_set_symbol_map(config, map)
            chafa_symbol_map_unref(map)
            chafa_canvas_config_set_work_factor(config, Float(work))
            // 256 colours: error diffusion keeps a photo's hues (the palette's cube is coarse,
            // and a cell's nearest colour is often a grey): measured on a mid-tone picture, the
            // colour error seen per cell falls from 31 to 21, on camera photos from 35 to 25.
            if colors <= 16 {
                chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_ORDERED)
            } else if colors <= 256 {
                chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_DIFFUSION)
            }
        case .sixel:
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
            chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS)
        }
        canvas = chafa_canvas_new(config)
        guard let canvas else { return }
        image.pixels.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4))
        }
    }

    deinit {
        if let canvas { chafa_canvas_unref(canvas) }
    }

    /// The canvas printed as escape sequences (sixel).
    func printed() -> [UInt8] {
        guard let canvas, let info = chafa_term_db_get_fallback_info(chafa_term_db_get_default()) else { return [] }
        defer { chafa_term_info_unref(info) }
        guard let printed = chafa_canvas_print(canvas, info) else { return [] }
        defer { CChafa_gstring_free(printed) }
        return [UInt8](UnsafeRawBufferPointer(start: CChafa_gstring_text(printed), count: Int(CChafa_gstring_length(printed))))
    }

    /// One cell of block art: its character and colours as the canvas mode gives them.
    struct Cell: Equatable {
        let character: UInt32
        /// Packed 0xRRGGBB in truecolor, a palette index in the indexed modes; negative for the terminal's default.
        let foreground: Int32
        let background: Int32
    }

    /// The cell at `x`, `y`. In truecolor the colours are packed RGB (`chafa_canvas_get_colors_at`);
    /// in the indexed modes they are palette indices (`chafa_canvas_get_raw_colors_at`): mixing the
    /// two up draws every cell in one colour.
    func cell(x: Int, y: Int) -> Cell {
        guard let canvas else { return Cell(character: 0x20, foreground: -1, background: -1) }
        var foreground: Int32 = -1, background: Int32 = -1
        if case .symbols(let colors, _) = kind, colors <= 256 {
            chafa_canvas_get_raw_colors_at(canvas, Int32(x), Int32(y), &foreground, &background)
            if foreground > 255 { foreground = -1 }
            if background > 255 { background = -1 }
        } else {
            chafa_canvas_get_colors_at(canvas, Int32(x), Int32(y), &foreground, &background)
        }
        return Cell(character: chafa_canvas_get_char_at(canvas, Int32(x), Int32(y)), foreground: foreground, background: background)
    }

    private static func canvasMode(colors: Int) -> ChafaCanvasMode {
        if colors > 256 { return CHAFA_CANVAS_MODE_TRUECOLOR }
        if colors >= 256 { return CHAFA_CANVAS_MODE_INDEXED_240 }
        if colors >= 16 { return CHAFA_CANVAS_MODE_INDEXED_16 }
        return CHAFA_CANVAS_MODE_INDEXED_8
    }

}

/// The size of one character cell in pixels.
public struct CellSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    /// A picture of `size` fitted into `columns`×`rows` of these cells, shape kept: its pixel
    /// size, and the cells it covers (a part-covered cell counts).
    public func fit(_ size: PixelSize, columns: Int, rows: Int) -> (pixels: PixelSize, columns: Int, rows: Int) {
        let box = PixelSize(width: max(1, columns) * width, height: max(1, rows) * height)
        let pixels = ThumbnailGeometry.fit(size, in: box, upscale: true)
        return (pixels, max(1, min(columns, (pixels.width + width - 1) / width)), max(1, min(rows, (pixels.height + height - 1) / height)))
    }

    /// The thumbnail size class (128…1024) whose pictures cover `columns`×`rows` of these cells.
    public func thumbnailSide(columns: Int, rows: Int) -> Int {
        let needed = max(columns * width, rows * height)
        return [128, 256, 512, 1024].first { $0 >= needed } ?? 1024
    }
}
