import ThumbnailKit

/// Kitty's Unicode placeholders (kitty 0.28 and newer, Ghostty): the picture is transmitted once
/// with a virtual placement, and shown by writing ordinary text cells (U+10EEEE with diacritics
/// naming the row and column, the foreground colour naming the image). tmux keeps those cells like
/// any text, so the picture survives its redraws, split panes and window switches; only the
/// transmission goes through tmux's passthrough.
public struct KittyPlaceholderDriver: GraphicsDriver {
    public let cell: CellSize
    /// Inside tmux, transmissions go through the passthrough envelope.
    public let throughTmux: Bool

    public init(cell: CellSize, throughTmux: Bool) {
        self.cell = cell
        self.throughTmux = throughTmux
    }

    public var mode: GraphicsMode { .kittyPlaceholders }
    public var drawsIntoCells: Bool { true }

    static let placeholder: UInt32 = 0x10EEEE

    public func render(_ image: PixelImage, columns: Int, rows: Int, imageID: UInt32) -> TerminalPicture {
        let fitted = PNGPicture(image, columns: columns, rows: rows, cell: cell)
        let transmission = PNGPicture.transmission(fitted.png, imageID: imageID, wrap: wrap)
            + wrap(PNGPicture.command("a=p,U=1,i=\(imageID),c=\(fitted.columns),r=\(fitted.rows),q=2"))
        return TerminalPicture(columns: fitted.columns, rows: fitted.rows, imageID: imageID, transmission: transmission,
                               lines: Self.lines(imageID: imageID, columns: fitted.columns, rows: fitted.rows))
    }

    /// Placeholder cells: each names its row, its column and the image id's high byte with
    /// diacritics; the low byte is the 256-colour foreground.
    static func lines(imageID: UInt32, columns: Int, rows: Int) -> [[UInt8]] {
        let high = Int(imageID >> 24)
        let colour = Array("\u{1B}[38;5;\(imageID & 0xFF)m".utf8)
        return (0..<rows).map { row in
            var line = colour
            for column in 0..<columns {
                EscapeSequence.utf8(placeholder, into: &line)
                EscapeSequence.utf8(KittyDiacritics.value(row), into: &line)
                EscapeSequence.utf8(KittyDiacritics.value(column), into: &line)
                EscapeSequence.utf8(KittyDiacritics.value(high), into: &line)
            }
            return line + Array("\u{1B}[39m".utf8)
        }
    }

    public func show(_ picture: TerminalPicture, row: Int, column: Int) -> (bytes: [UInt8], cells: CellRect) {
        (EscapeSequence.lines(picture.lines, row: row, column: column), CellRect(row: row, column: column, rows: picture.rows, columns: picture.columns))
    }

    public func transmit(_ picture: TerminalPicture) -> [UInt8] { picture.transmission }

    public func forget(imageID: UInt32) -> [UInt8] { wrap(PNGPicture.command("a=d,d=I,i=\(imageID),q=2")) }

    private func wrap(_ bytes: [UInt8]) -> [UInt8] { throughTmux ? TmuxPassthrough.wrap(bytes) : bytes }
}
