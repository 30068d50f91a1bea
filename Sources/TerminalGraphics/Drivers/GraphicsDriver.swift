import ThumbnailKit

/// A rectangle of character cells (0-based, from the top-left of the screen).
public struct CellRect: Sendable, Equatable, Hashable {
    public var row: Int
    public var column: Int
    public var rows: Int
    public var columns: Int

    public init(row: Int, column: Int, rows: Int, columns: Int) {
        self.row = row
        self.column = column
        self.rows = rows
        self.columns = columns
    }

    /// The screen rows the rectangle covers.
    public var rowRange: Range<Int> { row..<(row + rows) }

    /// The screen columns the rectangle covers.
    public var columnRange: Range<Int> { column..<(column + columns) }

    /// Whether the two rectangles share a cell.
    public func intersects(_ other: CellRect) -> Bool {
        rowRange.overlaps(other.rowRange) && columnRange.overlaps(other.columnRange)
    }
}

/// A picture made ready for one driver: its size in cells and the bytes that draw it. Made off the
/// UI thread (`GraphicsDriver.render`), then shown, moved and erased by the UI as often as needed.
public struct TerminalPicture: Sendable {
    /// The cells the picture covers.
    public let columns: Int
    public let rows: Int
    /// The id the terminal keeps the picture under (kitty); 0 when the picture is sent with each show.
    public let imageID: UInt32
    /// Sent once before the first show (kitty's transmission); empty for the other drivers.
    public let transmission: [UInt8]
    /// Drawn at the picture's top-left cell on each show: a sixel or iTerm2 sequence, or kitty's placement.
    let body: [UInt8]
    /// One byte string per row of cells (block art, kitty placeholders), each starting at the picture's left column.
    let lines: [[UInt8]]

    public init(columns: Int, rows: Int, imageID: UInt32 = 0, transmission: [UInt8] = [], body: [UInt8] = [], lines: [[UInt8]] = []) {
        self.columns = columns
        self.rows = rows
        self.imageID = imageID
        self.transmission = transmission
        self.body = body
        self.lines = lines
    }

    /// The bytes it holds, for memory budgets.
    public var byteCount: Int { transmission.count + body.count + lines.reduce(0) { $0 + $1.count } }

    /// Whether there is anything to draw.
    public var isEmpty: Bool { columns == 0 || rows == 0 || (body.isEmpty && lines.isEmpty && transmission.isEmpty) }
}

/// Where the browser's pane sits inside tmux, and whether graphics go through tmux's passthrough.
public struct TmuxPane: Sendable, Equatable {
    /// The pane's top-left cell on the outer terminal (`#{pane_top}`, `#{pane_left}`).
    public var top: Int
    public var left: Int

    public init(top: Int, left: Int) {
        self.top = top
        self.left = left
    }
}

/// One way of putting pictures on a terminal (one per protocol). `render` does the slow part off
/// the UI thread; `show` and `erase` are cheap and give the exact bytes for a frame.
public protocol GraphicsDriver: Sendable {
    /// The protocol this driver speaks.
    var mode: GraphicsMode { get }
    /// True when a picture lives in the cells it was drawn over (block art, sixel, iTerm2, kitty
    /// placeholders): repainting those cells takes it down, and repainting a line takes down every
    /// picture on it. False when pictures float over the text (kitty placements) and are taken down by command.
    var drawsIntoCells: Bool { get }
    /// Fits `image` into `columns`×`rows` cells and prepares what draws it. `imageID` names it in
    /// terminals that keep pictures (kitty); other drivers ignore it.
    func render(_ image: PixelImage, columns: Int, rows: Int, imageID: UInt32) -> TerminalPicture
    /// The bytes that show `picture` with its top-left cell at `row`, `column`, and the cells it covers.
    func show(_ picture: TerminalPicture, row: Int, column: Int) -> (bytes: [UInt8], cells: CellRect)
    /// The bytes that take a shown picture down; empty when repainting its cells is enough.
    func erase(_ picture: TerminalPicture, at cells: CellRect) -> [UInt8]
    /// The bytes that put a picture's data into the terminal's memory (once, before its first show).
    func transmit(_ picture: TerminalPicture) -> [UInt8]
    /// The bytes that make the terminal forget a transmitted picture's data.
    func forget(imageID: UInt32) -> [UInt8]
    /// The bytes that take every picture down: `freeing` also drops the data the terminal keeps (on quit).
    func eraseAll(freeing: Bool) -> [UInt8]
    /// The bytes that draw `picture` from the cursor on, with no cursor positioning: for another
    /// program's preview pane (`qlbrowse preview`), which places the output itself.
    func inline(_ picture: TerminalPicture) -> [UInt8]
}

extension GraphicsDriver {
    public func transmit(_ picture: TerminalPicture) -> [UInt8] { [] }
    public func forget(imageID: UInt32) -> [UInt8] { [] }
    public func eraseAll(freeing: Bool) -> [UInt8] { [] }
    public func erase(_ picture: TerminalPicture, at cells: CellRect) -> [UInt8] { [] }

    /// Whatever must reach the terminal once, then the picture itself: a sequence drawn at the
    /// cursor, or its rows of cells one per line.
    public func inline(_ picture: TerminalPicture) -> [UInt8] {
        picture.transmission + picture.body + Array(picture.lines.joined(separator: [0x0A]))
    }
}

/// Byte-building helpers the drivers share.
enum EscapeSequence {
    static let saveCursor: [UInt8] = [0x1B, UInt8(ascii: "7")]
    static let restoreCursor: [UInt8] = [0x1B, UInt8(ascii: "8")]
    static let resetAttributes = Array("\u{1B}[0m".utf8)

    /// `CSI row;column H`, 0-based in, 1-based out.
    static func moveTo(row: Int, column: Int) -> [UInt8] { Array("\u{1B}[\(row + 1);\(column + 1)H".utf8) }

    /// Each line of a cell picture at its row, the cursor and attributes put back afterwards.
    static func lines(_ lines: [[UInt8]], row: Int, column: Int) -> [UInt8] {
        var out = saveCursor
        for (offset, line) in lines.enumerated() {
            out += moveTo(row: row + offset, column: column)
            out += line
        }
        return out + resetAttributes + restoreCursor
    }

    static func utf8(_ scalar: UInt32, into out: inout [UInt8]) {
        guard let value = Unicode.Scalar(scalar) else { return }
        out.append(contentsOf: Array(String(Character(value)).utf8))
    }
}
