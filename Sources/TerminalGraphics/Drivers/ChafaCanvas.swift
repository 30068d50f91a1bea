internal import CChafa
import SystemKit
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
    /// Without libchafa (opened here, at the first picture) the canvas is empty, and why is said
    /// once on standard error.
    init(_ image: PixelImage, columns: Int, rows: Int, cell: CellSize, kind: Kind) {
        let fitted = cell.fit(image.size, columns: columns, rows: rows)
        self.columns = fitted.columns
        self.rows = fitted.rows
        self.kind = kind
        guard image.width > 0, image.height > 0, Self.libraryOpened else {
            canvas = nil
            return
        }
        let sixel: Bool, colors: Int, work: Double
        switch kind {
        case .symbols(let symbolColors, let symbolWork): (sixel, colors, work) = (false, symbolColors, symbolWork)
        case .sixel: (sixel, colors, work) = (true, Int(SymbolsDriver.truecolor), 0)
        }
        canvas = image.pixels.withUnsafeBufferPointer {
            CChafa_canvas_new(Int32(fitted.columns), Int32(fitted.rows), Int32(cell.width), Int32(cell.height), sixel ? 1 : 0,
                              Int32(clamping: colors), Float(work), $0.baseAddress, Int32(image.width), Int32(image.height))
        }
    }

    /// Whether libchafa could be opened; the first time it could not, says why on standard error.
    private static let libraryOpened: Bool = {
        guard let why = CChafa_library_error() else { return true }
        FileDescriptorWriter.writeAll(Array("qlbrowse: \(String(cString: why)) (install libchafa0): no block art or sixel pictures\n".utf8), to: 2)
        return false
    }()

    deinit {
        CChafa_canvas_free(canvas)
    }

    /// The canvas printed as escape sequences (sixel).
    func printed() -> [UInt8] {
        guard let canvas else { return [] }
        var length = 0
        guard let printed = CChafa_canvas_print(canvas, &length) else { return [] }
        defer { CChafa_free(printed) }
        return [UInt8](UnsafeRawBufferPointer(start: printed, count: length))
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
            CChafa_canvas_colors_at(canvas, Int32(x), Int32(y), 1, &foreground, &background)
            if foreground > 255 { foreground = -1 }
            if background > 255 { background = -1 }
        } else {
            CChafa_canvas_colors_at(canvas, Int32(x), Int32(y), 0, &foreground, &background)
        }
        return Cell(character: CChafa_canvas_char_at(canvas, Int32(x), Int32(y)), foreground: foreground, background: background)
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
