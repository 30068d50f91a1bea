import BrowserCore
import SystemKit
import TerminalGraphics
import ThumbnailKit

/// Turns the pictures a frame wants into the terminal's: asks the encoder for each (once), keeps
/// the encodings within a budget, and hands what is ready to the placements. Until a better
/// representation is encoded, a slot keeps showing what it showed.
final class PictureDrawer {
    /// Encodings kept: at most this many, or this many bytes, before those off screen go.
    static let encodedBudget = (count: 400, bytes: 48 << 20)

    /// How pictures are drawn; nil draws none (`--graphics none`).
    private(set) var driver: (any GraphicsDriver)?
    private(set) var cell: CellSize
    let placements: PicturePlacements
    private let encoder: PictureEncoder
    /// Pictures rendered for the driver, by encoding id (file, size, cell rectangle, representation).
    private var encoded: [String: TerminalPicture] = [:]
    private var encodedBytes = 0
    /// The image id each encoding is kept under by terminals that keep pictures (kitty): stable,
    /// so that a picture encoded again after eviction is not sent again.
    private var imageIDs: [String: UInt32] = [:]
    private var imageSerial = 0
    /// The encodings this frame drew or waits for, for the encoder.
    private var wantedEncodings: Set<String> = []
    /// Encodings asked of the encoder and not back yet: not asked twice (one done and on its way
    /// through the inbox would otherwise be encoded again by the next frame).
    private var pendingEncodings: Set<String> = []
    /// Per slot (file, size, cell rectangle): the id of the encoding last drawn there.
    private var lastDrawn: [String: String] = [:]
    /// Where the last frame put each file's picture (the cells it covers), for the mouse.
    private(set) var placed: [String: CellRect] = [:]

    init(driver: (any GraphicsDriver)?, cell: CellSize, encoder: PictureEncoder) {
        self.driver = driver
        self.cell = cell
        self.encoder = encoder
        self.placements = PicturePlacements(driver: driver ?? SymbolsDriver(cell: cell, colors: 256))
    }

    /// Draws with `driver` from now on (at start, and after a resize, when the cell size or the
    /// tmux pane may have changed): what was rendered for the old one is dropped.
    func use(_ driver: (any GraphicsDriver)?, cell: CellSize) {
        self.driver = driver
        self.cell = cell
        if let driver { placements.driver = driver }
        forgetEncodings()
    }

    /// Every encoding goes (the pictures they came from were evicted).
    func forgetEncodings() {
        encoded.removeAll()
        encodedBytes = 0
        pendingEncodings.removeAll()
        lastDrawn.removeAll()
    }

    /// Every encoding of the file at `path` goes, with the image ids it was kept under, so that a
    /// terminal keeping pictures (kitty) gets the changed file's pictures, not the old ones.
    func forget(path: String) {
        let prefix = path + "|"
        encoded = encoded.filter { !$0.key.hasPrefix(prefix) }
        encodedBytes = encoded.values.reduce(0) { $0 + $1.byteCount }
        pendingEncodings = pendingEncodings.filter { !$0.hasPrefix(prefix) }
        lastDrawn = lastDrawn.filter { !$0.key.hasPrefix(prefix) }
        imageIDs = imageIDs.filter { !$0.key.hasPrefix(prefix) }
    }

    func beginFrame() {
        placements.beginFrame()
        wantedEncodings = []
        placed = [:]
    }

    /// What this frame did not want, the encoder drops: asked again when wanted again.
    func endFrame() {
        pendingEncodings.formIntersection(wantedEncodings)
        encoder.keepOnly(wantedEncodings)
    }

    func storeEncoded(_ picture: TerminalPicture, id: String) {
        if encoded.count > Self.encodedBudget.count || encodedBytes > Self.encodedBudget.bytes {
            let onScreen = wantedEncodings.union(lastDrawn.values)
            encoded = encoded.filter { onScreen.contains($0.key) }
            encodedBytes = encoded.values.reduce(0) { $0 + $1.byteCount }
        }
        encoded[id] = picture
        encodedBytes += picture.byteCount
        pendingEncodings.remove(id)
    }

    /// Draws `representation` fitted and centred in `rect`, turned as an edit under way shows it.
    /// Its encoding is asked of the encoder the first time; until it comes, what this rectangle
    /// showed before stays.
    func draw(_ representation: Representation, key: PictureKey, in rect: CellRect, turn: QuickEdit.Turn = .none, overlay: PictureOverlay? = nil) {
        guard rect.columns > 0, rect.rows > 0, let driver else { return }
        let slot = "\(key.path)|\(key.side)|\(rect.columns)x\(rect.rows)"
        // The slot shows what it showed until the new page or frame is encoded; the id names it exactly.
        let id = "\(slot)|\(key.part)|\(representation.type.rawValue)" + (turn == .none ? "" : "|\(turn)") + (overlay.map { "|\($0)" } ?? "")
        wantedEncodings.insert(id)
        if encoded[id] == nil && pendingEncodings.insert(id).inserted {
            encoder.request(.init(id: id, image: representation.image, driver: driver, columns: rect.columns, rows: rect.rows, imageID: imageID(for: id), turn: turn, overlay: overlay))
        }
        // What this place showed last stays until the new encoding is in (the same picture at
        // the same size elsewhere is another place: a storyboard's tiles do not stand in for each other).
        let place = slot + "@\(rect.row),\(rect.column)"
        guard let shownID = encoded[id] != nil ? id : lastDrawn[place].flatMap({ encoded[$0] != nil ? $0 : nil }), let picture = encoded[shownID],
              !picture.isEmpty else { return }
        if lastDrawn.count > 2000 { lastDrawn.removeAll() }
        lastDrawn[place] = shownID
        placed[key.path] = CellRect(row: rect.row + (rect.rows - picture.rows) / 2, column: rect.column + (rect.columns - picture.columns) / 2,
                                    rows: picture.rows, columns: picture.columns)
        placements.place(id: shownID, picture: picture, row: rect.row + (rect.rows - picture.rows) / 2, column: rect.column + (rect.columns - picture.columns) / 2,
                         slot: slot)
    }

    /// The image id an encoding is kept under (kitty); the same each time it is encoded.
    private func imageID(for id: String) -> UInt32 {
        if let existing = imageIDs[id] { return existing }
        if imageIDs.count > 8192 { imageIDs = imageIDs.filter { placements.holds($0.value) } }
        let imageID = KittyDriver.imageID(serial: imageSerial)
        imageSerial += 1
        imageIDs[id] = imageID
        return imageID
    }
}
