import ThumbnailKit

/// Kitty's graphics protocol (kitty, WezTerm, Ghostty, Konsole): each picture is transmitted once,
/// as PNG, under an id; after that it is placed, moved and taken down by id, so scrolling back, a
/// moving selection or an overlay costs a few dozen bytes, not the picture again. Placements float
/// over the text, so they are deleted by command rather than by repainting cells.
public struct KittyDriver: GraphicsDriver {
    public let cell: CellSize

    public init(cell: CellSize) {
        self.cell = cell
    }

    public var mode: GraphicsMode { .kitty }
    public var drawsIntoCells: Bool { false }

    public func render(_ image: PixelImage, columns: Int, rows: Int, imageID: UInt32) -> TerminalPicture {
        let fitted = PNGPicture(image, columns: columns, rows: rows, cell: cell)
        // Only the side that binds is given: kitty scales the other keeping the picture's shape.
        // A picture sent smaller than its cells gets both: kitty before 0.28 takes the side not
        // given from the picture's own pixels, which cuts or squeezes it.
        let extent = fitted.isSmallerThanCells ? "c=\(fitted.columns),r=\(fitted.rows)"
            : fitted.widthBound ? "c=\(fitted.columns)" : "r=\(fitted.rows)"
        return TerminalPicture(columns: fitted.columns, rows: fitted.rows, imageID: imageID,
                               transmission: PNGPicture.transmission(fitted.png, imageID: imageID, wrap: { $0 }),
                               body: PNGPicture.command("a=p,i=\(imageID),p=1,\(extent),C=1,q=2"))
    }

    public func show(_ picture: TerminalPicture, row: Int, column: Int) -> (bytes: [UInt8], cells: CellRect) {
        (EscapeSequence.saveCursor + EscapeSequence.moveTo(row: row, column: column) + picture.body + EscapeSequence.restoreCursor,
         CellRect(row: row, column: column, rows: picture.rows, columns: picture.columns))
    }

    public func transmit(_ picture: TerminalPicture) -> [UInt8] { picture.transmission }

    /// Deletes the placement and keeps the data: the picture can be placed again without sending it.
    public func erase(_ picture: TerminalPicture, at cells: CellRect) -> [UInt8] {
        PNGPicture.command("a=d,d=i,i=\(picture.imageID),p=1,q=2")
    }

    public func forget(imageID: UInt32) -> [UInt8] { PNGPicture.command("a=d,d=I,i=\(imageID),q=2") }

    public func eraseAll(freeing: Bool) -> [UInt8] { PNGPicture.command(freeing ? "a=d,d=A,q=2" : "a=d,d=a,q=2") }

    /// The `serial`-th image id the browser hands out, one that both kitty drivers can show.
    public static func imageID(serial: Int) -> UInt32 { PNGPicture.imageID(serial: serial) }
}

/// A picture scaled to the pixels of the cells it will cover and encoded as PNG (the kitty and
/// iTerm2 drivers send these), and the kitty commands both kitty drivers share.
struct PNGPicture {
    let png: [UInt8]
    let columns: Int
    let rows: Int
    /// True when the picture fills the width it was given (so its height follows from it).
    let widthBound: Bool
    /// True when the PNG is smaller than the cells' pixels (the terminal enlarges it).
    let isSmallerThanCells: Bool

    init(_ image: PixelImage, columns: Int, rows: Int, cell: CellSize) {
        let fitted = cell.fit(image.size, columns: columns, rows: rows)
        // Never enlarged here: the terminal scales a smaller picture to its cells itself, and a
        // small picture (a video frame while playing) is quicker to encode and to send.
        let size = image.width < fitted.pixels.width ? image.size : fitted.pixels
        let scaled = size == image.size ? image : image.resized(to: size)
        isSmallerThanCells = size != fitted.pixels
        png = PNGEncoder.encode(scaled, opaqueAsRGB: true, compressionLevel: 6)
        self.columns = fitted.columns
        self.rows = fitted.rows
        widthBound = size.width * max(1, rows) * cell.height >= size.height * max(1, columns) * cell.width
    }

    /// `ESC _ G keys ESC \`.
    static func command(_ keys: String, payload: ArraySlice<UInt8> = []) -> [UInt8] {
        Array("\u{1B}_G\(keys)".utf8) + (payload.isEmpty ? [] : [UInt8(ascii: ";")] + payload) + [0x1B, UInt8(ascii: "\\")]
    }

    /// The PNG sent under `imageID` in chunks of 4096 base64 bytes, each chunk passed through `wrap`.
    static func transmission(_ png: [UInt8], imageID: UInt32, wrap: ([UInt8]) -> [UInt8]) -> [UInt8] {
        let encoded = Base64.encode(png)
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count + encoded.count / 4096 * 24 + 64)
        var start = 0
        repeat {
            let end = min(encoded.count, start + 4096)
            let more = end < encoded.count ? 1 : 0
            let keys = start == 0 ? "a=t,f=100,t=d,i=\(imageID),q=2,m=\(more)" : "m=\(more)"
            out += wrap(command(keys, payload: encoded[start..<end]))
            start = end
        } while start < encoded.count
        return out
    }

    /// The image ids the browser hands out, in an order both kitty drivers can show: the low byte
    /// (1…255) goes in a 256-colour foreground, the high byte in a third diacritic (placeholders).
    static func imageID(serial: Int) -> UInt32 {
        let low = UInt32(1 + serial % 255)
        let high = UInt32((serial / 255) % 256)
        return high << 24 | low
    }
}

/// Standard base64, for kitty's payloads.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out += [alphabet[Int(value >> 18)], alphabet[Int(value >> 12 & 63)], alphabet[Int(value >> 6 & 63)], alphabet[Int(value & 63)]]
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let value = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            out += [alphabet[Int(value >> 18)], alphabet[Int(value >> 12 & 63)], rest == 2 ? alphabet[Int(value >> 6 & 63)] : UInt8(ascii: "="), UInt8(ascii: "=")]
        }
        return out
    }
}
